#include "log/direction_names.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

LogSource Smallfile(const std::string& op) {
  LogSource s;
  s.path = "rsptimes_00_h1_" + op + "_1700000000.csv";
  s.per_io = s.smallfile = true;
  s.op = op;
  return s;
}

TEST(DirectionNames, FioByDefault) {
  DirectionNames n;
  EXPECT_FALSE(n.has_ops());
  EXPECT_EQ(n.Name(Direction::kRead), "read");
  EXPECT_EQ(n.Name(Direction::kAll), "all");
  EXPECT_EQ(n.Op(Direction::kWrite), "");
  Direction d = Direction::kAll;
  ASSERT_TRUE(n.Find("trim", &d));
  EXPECT_EQ(d, Direction::kTrim);
  EXPECT_FALSE(n.Find("create", &d));
}

TEST(DirectionNames, EachOpItsOwnSlot) {
  DirectionNames n;
  // create and append both write: append (first by name) takes write, create the free
  // slot after read's.
  ASSERT_TRUE(n.AssignOps({"read", "create", "append", "create"}));
  EXPECT_TRUE(n.has_ops());
  EXPECT_EQ(n.Name(Direction::kRead), "read");
  EXPECT_EQ(n.Name(Direction::kWrite), "append");
  EXPECT_EQ(n.Name(Direction::kTrim), "create");
  EXPECT_EQ(n.Name(Direction::kAll), "all");
  EXPECT_EQ(n.Op(Direction::kAll), "");
  EXPECT_EQ(n.Class(Direction::kTrim), Direction::kWrite);
  Direction d = Direction::kAll;
  ASSERT_TRUE(n.Find("create", &d));
  EXPECT_EQ(d, Direction::kTrim);
  // The same ops in any order give the same slots (read-back assigns them again).
  DirectionNames again;
  ASSERT_TRUE(again.AssignOps({"append", "read", "create"}));
  for (Direction x : kAllDirections) EXPECT_EQ(again.Name(x), n.Name(x));
  // One op per class keeps fio's slot for it.
  ASSERT_TRUE(n.AssignOps({"delete", "create", "read"}));
  EXPECT_EQ(n.Name(Direction::kRead), "read");
  EXPECT_EQ(n.Name(Direction::kWrite), "create");
  EXPECT_EQ(n.Name(Direction::kTrim), "delete");
  // A single op leaves the other slots fio's names (never used).
  ASSERT_TRUE(n.AssignOps({"stat"}));
  EXPECT_EQ(n.Name(Direction::kRead), "stat");
  EXPECT_EQ(n.Name(Direction::kWrite), "write");
  EXPECT_FALSE(n.AssignOps({"a", "b", "c", "d"}));
  EXPECT_EQ(n.Name(Direction::kRead), "stat");  // unchanged
}

TEST(DirectionNames, SmallfileSourcesGetSlots) {
  std::vector<LogSource> sources = {Smallfile("create"), Smallfile("append"), Smallfile("read"),
                                    Smallfile("create")};
  DirectionNames names;
  std::vector<std::string> notes;
  AssignSmallfileSlots(&sources, &names, &notes);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(sources[0].slot, Direction::kTrim);
  EXPECT_EQ(sources[1].slot, Direction::kWrite);
  EXPECT_EQ(sources[2].slot, Direction::kRead);
  EXPECT_EQ(sources[3].slot, Direction::kTrim);
}

TEST(DirectionNames, MoreOpsThanSlotsAreCountedByClassAndSaidSo) {
  std::vector<LogSource> sources = {Smallfile("create"), Smallfile("append"), Smallfile("read"),
                                    Smallfile("delete")};
  DirectionNames names;
  std::vector<std::string> notes;
  AssignSmallfileSlots(&sources, &names, &notes);
  EXPECT_FALSE(names.has_ops());
  EXPECT_EQ(sources[0].slot, Direction::kWrite);
  EXPECT_EQ(sources[1].slot, Direction::kWrite);
  EXPECT_EQ(sources[3].slot, Direction::kTrim);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("append, create, delete, read counted in the directions"),
            std::string::npos)
      << notes[0];
  EXPECT_NE(notes[0].find("4 ops, more than the 3"), std::string::npos) << notes[0];
}

TEST(DirectionNames, FioLogsBesideSmallfileKeepFioNames) {
  LogSource fio;
  fio.path = "t_clat.1.log";
  fio.per_io = true;
  std::vector<LogSource> sources = {Smallfile("create"), fio};
  DirectionNames names;
  std::vector<std::string> notes;
  AssignSmallfileSlots(&sources, &names, &notes);
  EXPECT_FALSE(names.has_ops());
  EXPECT_EQ(sources[0].slot, Direction::kWrite);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("fio logs are in the same run"), std::string::npos) << notes[0];
  // No smallfile file: nothing said.
  sources = {fio};
  notes.clear();
  AssignSmallfileSlots(&sources, &names, &notes);
  EXPECT_TRUE(notes.empty());
}

}  // namespace
}  // namespace fiohist
