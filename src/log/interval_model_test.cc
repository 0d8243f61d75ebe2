#include "log/interval_model.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(IntervalModel, StampsCloseTheirInterval) {
  IntervalModel m(1000, 0);
  RecordPlacement p;
  ASSERT_EQ(m.Place(1001, Direction::kRead, &p), IntervalModel::Verdict::kPlaced);
  EXPECT_EQ(p.covers.start_ms, 1);
  EXPECT_EQ(p.covers.end_ms, 1001);
  EXPECT_FALSE(p.lone);
  ASSERT_EQ(m.Place(1001, Direction::kWrite, &p), IntervalModel::Verdict::kPlaced);
  EXPECT_EQ(p.covers.start_ms, 1);
  // Stamps a few ms past their deadline (fio's drift) keep the whole span.
  ASSERT_EQ(m.Place(2003, Direction::kRead, &p), IntervalModel::Verdict::kPlaced);
  EXPECT_EQ(p.ios.start_ms, 1001);
  EXPECT_EQ(p.ios.end_ms, 2003);
  EXPECT_FALSE(p.lone);
  ASSERT_EQ(m.Place(3001, Direction::kRead, &p), IntervalModel::Verdict::kPlaced);
  EXPECT_EQ(p.ios.start_ms, 2003);
  EXPECT_EQ(p.ios.end_ms, 3001);
  EXPECT_EQ(m.Place(2000, Direction::kRead, &p), IntervalModel::Verdict::kBackwards);
  EXPECT_EQ(m.Plan(5000, Direction::kTrim).start_ms(), 4000);
}

// fio's rule on a 3.5 s stall (issue 30): the deadline grid is 1001 + k * 1000; the
// freeze begins at 3650 and ends at 7100. The record of deadline 4001 is written at
// 7100: its I/Os completed in (3001, 4001) (really by 3650), the one that wrote it at
// 7100; the next completions write one record per missed deadline (5001, 6001, 7001).
TEST(IntervalModel, StallSplitsTheRecordAtItsDeadline) {
  IntervalModel m(1000, 0);
  RecordPlacement p;
  for (int64_t t : {1001, 2001, 3001}) m.Place(t, Direction::kRead, &p);
  ASSERT_EQ(m.Place(7100, Direction::kRead, &p), IntervalModel::Verdict::kPlaced);
  EXPECT_EQ(p.covers.start_ms, 3001);
  EXPECT_EQ(p.covers.end_ms, 7100);
  EXPECT_EQ(p.ios.start_ms, 3001);
  EXPECT_EQ(p.ios.end_ms, 4001);
  EXPECT_TRUE(p.lone);
  EXPECT_EQ(p.lone_span().start_ms, 7099);
  EXPECT_EQ(p.lone_span().end_ms, 7100);
  // Catch-up records, the same stamp or a ms later: each one whole at its stamp.
  for (int64_t t : {7100, 7100, 7101}) {
    ASSERT_EQ(m.Place(t, Direction::kRead, &p), IntervalModel::Verdict::kPlaced);
    EXPECT_FALSE(p.lone);
    EXPECT_EQ(p.ios.start_ms, t - 1);
    EXPECT_EQ(p.ios.end_ms, t);
  }
  // Caught up: the deadline of 8001 is ahead again, a normal record.
  ASSERT_EQ(m.Place(8001, Direction::kRead, &p), IntervalModel::Verdict::kPlaced);
  EXPECT_FALSE(p.lone);
  EXPECT_EQ(p.ios.start_ms, 7101);
  EXPECT_EQ(p.ios.end_ms, 8001);
}

// A hiccup of 0.3 s: a record 1.3 s long holds the I/Os of its first second.
TEST(IntervalModel, HiccupEndsAtItsDeadline) {
  IntervalModel m(1000, 0);
  RecordPlacement p;
  m.Place(1001, Direction::kWrite, &p);
  m.Place(2300, Direction::kWrite, &p);
  EXPECT_TRUE(p.lone);
  EXPECT_EQ(p.ios.end_ms, 2001);
  // Its successor's deadline is 3001, not 3300.
  m.Place(3001, Direction::kWrite, &p);
  EXPECT_FALSE(p.lone);
  EXPECT_EQ(p.ios.start_ms, 2300);
}

// A stamp earlier than the estimated deadline moves the grid back: fio's stamps are
// never before their deadline.
TEST(IntervalModel, EarlyStampCorrectsTheDeadline) {
  IntervalModel m(1000, INT64_MIN / 2);
  RecordPlacement p;
  m.Place(1400, Direction::kRead, &p);  // no job start known: taken as on time
  m.Place(2001, Direction::kRead, &p);  // 2400 was too late a deadline
  EXPECT_FALSE(p.lone);
  m.Place(3500, Direction::kRead, &p);  // deadline 3001: 499 ms of pause
  EXPECT_TRUE(p.lone);
  EXPECT_EQ(p.ios.end_ms, 3001);
}

TEST(IntervalModel, FirstSpanNeverStartsBeforeTheJob) {
  IntervalModel m(1000, 0);
  RecordPlacement p;
  ASSERT_EQ(m.Place(400, Direction::kRead, &p), IntervalModel::Verdict::kPlaced);
  EXPECT_EQ(p.ios.start_ms, 0);
  EXPECT_EQ(p.ios.end_ms, 400);
}

// thinktime: 20,001 I/Os in the first 0.6 s, then 2.5 s idle. fio's reference began at
// the first completion (the job's start): the record's I/Os belong to (0, 1000], the
// I/O that wrote it at 3100 alone; the catch-up records of 2000 and 3000 at their stamps.
TEST(IntervalModel, LateFirstRecordStartsWithTheJob) {
  IntervalModel m(1000, 0, true);
  EXPECT_EQ(m.Plan(1900, Direction::kTrim).start_ms(), 900);  // may be on time
  RecordPlacement p;
  m.Place(3100, Direction::kRead, &p);
  EXPECT_EQ(p.covers.start_ms, 0);
  EXPECT_EQ(p.ios.start_ms, 0);
  EXPECT_EQ(p.ios.end_ms, 1000);
  EXPECT_TRUE(p.lone);
  m.Place(3100, Direction::kRead, &p);
  EXPECT_EQ(p.ios.start_ms, 3099);
  m.Place(3101, Direction::kRead, &p);
  EXPECT_EQ(p.ios.start_ms, 3100);
  m.Place(4000, Direction::kRead, &p);
  EXPECT_FALSE(p.lone);
  EXPECT_EQ(p.ios.start_ms, 3101);
}

// Epoch logs without a known job start: the first record is taken as on time.
TEST(IntervalModel, UnknownFloorKeepsTheFirstRecord) {
  IntervalModel m(1000, INT64_MIN / 2);
  RecordPlacement p;
  m.Place(1795306120457, Direction::kRead, &p);
  EXPECT_FALSE(p.lone);
  EXPECT_EQ(p.ios.start_ms, 1795306119457);
}

}  // namespace
}  // namespace fiohist
