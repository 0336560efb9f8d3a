//===- RequestTableTest.cpp - handles of non-blocking collectives -*- C++ -*-=//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The handle table behind summaRtBroadcastStart / summaRtReduceStart /
// summaRtWait (runtime/common/RequestTable.h, shared by both backends): ids
// count up from 1 and are never reused, a handle is taken exactly once, the
// payload may be move-only (the GPU backend's CollectiveHandle is), and the
// fatal messages are worded as the C ABI documents.
//
//===----------------------------------------------------------------------===//

#include "RequestTable.h"
#include "HostTestUtil.h"

#include <memory>

using summa::rt::RequestTable;

TEST(RequestTableTest, IdsCountUpFromOne) {
  RequestTable<int> table;
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.peekNextId(), 1);
  EXPECT_EQ(table.add(10), 1);
  EXPECT_EQ(table.add(20), 2);
  EXPECT_EQ(table.add(30), 3);
  EXPECT_EQ(table.size(), 3u);
  EXPECT_TRUE(table.contains(2));
  EXPECT_FALSE(table.contains(4));
}

TEST(RequestTableTest, TakeOnceInAnyOrder) {
  RequestTable<int> table;
  int64_t a = table.add(10), b = table.add(20), c = table.add(30);
  std::optional<int> value = table.take(c);
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(*value, 30);
  EXPECT_EQ(table.take(a).value_or(-1), 10);
  EXPECT_EQ(table.size(), 1u);
  // Taken already: not in flight.
  EXPECT_FALSE(table.take(c).has_value());
  EXPECT_FALSE(table.take(a).has_value());
  EXPECT_FALSE(table.contains(a));
  EXPECT_EQ(table.take(b).value_or(-1), 20);
  EXPECT_EQ(table.size(), 0u);
}

TEST(RequestTableTest, IdsAreNeverReused) {
  RequestTable<int> table;
  int64_t first = table.add(1);
  ASSERT_TRUE(table.take(first).has_value());
  int64_t second = table.add(2);
  EXPECT_GT(second, first);
  ASSERT_TRUE(table.take(second).has_value());
  int64_t previous = second;
  for (int i = 0; i < 100; ++i) {
    int64_t id = table.add(i);
    EXPECT_GT(id, previous);
    previous = id;
    if (i % 3 != 0)
      table.take(id);
  }
  EXPECT_EQ(table.size(), 34u);
}

TEST(RequestTableTest, ZeroAndNegativeAreNeverInFlight) {
  RequestTable<int> table;
  table.add(1);
  EXPECT_FALSE(table.take(0).has_value());
  EXPECT_FALSE(table.take(-1).has_value());
  EXPECT_FALSE(table.take(INT64_MIN).has_value());
  EXPECT_FALSE(table.take(INT64_MAX).has_value());
  EXPECT_EQ(table.size(), 1u);
}

TEST(RequestTableTest, MoveOnlyPayload) {
  RequestTable<std::unique_ptr<int>> table;
  int64_t id = table.add(std::make_unique<int>(42));
  std::optional<std::unique_ptr<int>> value = table.take(id);
  ASSERT_TRUE(value.has_value());
  ASSERT_NE(value->get(), nullptr);
  EXPECT_EQ(**value, 42);
}

TEST(RequestTableTest, Messages) {
  EXPECT_EQ(summa::rt::requestNotInFlightMessage(7),
            "summaRtWait: request 7 is not in flight");
  EXPECT_EQ(summa::rt::requestNotInFlightMessage(-1),
            "summaRtWait: request -1 is not in flight");
  EXPECT_EQ(summa::rt::requestsNeverWaitedMessage(1),
            "summaRtFinalize: 1 collective was started and never waited for");
  EXPECT_EQ(summa::rt::requestsNeverWaitedMessage(2),
            "summaRtFinalize: 2 collectives were started and never waited "
            "for");
}
