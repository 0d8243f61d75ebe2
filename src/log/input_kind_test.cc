#include "log/input_kind.h"

#include <gtest/gtest.h>

#include "base/test_util.h"

namespace fiohist {
namespace {

const std::string kData = std::string(FIOHIST_SOURCE_DIR) + "/tests/golden/data/fio-3.42/";

TEST(InputKind, TellsEveryKindByItsContent) {
  EXPECT_EQ(DetectInputKind(kData + "v342_clat_hist.1.log.node1.gz"), InputKind::kHistLog);
  EXPECT_EQ(DetectInputKind(WriteTempFile("k.log", "1000, 0, 4096, 1, 2\n")),
            InputKind::kHistLog);
  EXPECT_EQ(DetectInputKind(kData + "status-node1.json"), InputKind::kFioJson);
  EXPECT_EQ(DetectInputKind(kData + "fio-node1.json"), InputKind::kFioJson);
  EXPECT_EQ(DetectInputKind(kData + "client-2servers.json"), InputKind::kClientServer);
  // A client/server output without the servers' text lines.
  EXPECT_EQ(DetectInputKind(WriteTempFile("k1.json", "{ \"client_stats\" : [ ] }\n")),
            InputKind::kClientServer);
  // Text before something that is not a client/server document: the log reader says what
  // is wrong with it; a missing file too.
  EXPECT_EQ(DetectInputKind(WriteTempFile("k2.log", "fio: note\n{ \"jobs\" : [] }\n")),
            InputKind::kHistLog);
  EXPECT_EQ(DetectInputKind("/nonexistent/x.log"), InputKind::kHistLog);
  // A client/server output cut among its text lines or before `client_stats`: its reader
  // says where it ends.
  EXPECT_EQ(DetectInputKind(WriteTempFile("k3.json", "<vm> w: (g=0): rw=randrw\n<vm> Sta")),
            InputKind::kClientServer);
  EXPECT_EQ(DetectInputKind(WriteTempFile("k4.json", "<vm> w: (g=0): rw=randrw\n\n{\n"
                                                     "  \"fio version\" : \"fio-3.42\",\n")),
            InputKind::kClientServer);
  EXPECT_STREQ(InputKindName(InputKind::kClientServer), "fio client/server output");
}

}  // namespace
}  // namespace fiohist
