#include "es/document_sink.h"

#include <gtest/gtest.h>

#include "output/bucket_form_chooser.h"
#include "stats/pipeline.h"

namespace fiohist {
namespace {

const std::string kSamples = FIOHIST_SOURCE_DIR "/samples/epoch2";

// The actions of a push of the sample logs (4 jobs on 2 hosts, epoch stamps) in `form`.
std::vector<BulkAction> Push(BucketForm form) {
  PipelineOptions o;
  o.scopes = {true, true, true};
  o.keep_records = true;
  o.find_fio_json = false;
  EXPECT_TRUE(MakePercentiles({50, 99, 99.9}, &o.percentiles).ok());
  std::vector<BulkAction> actions;
  BucketOptions buckets;
  buckets.form = form;
  DocumentSink sink("fiohist", RunMeta{"r", {}, {}},
                    [&](BulkAction a) {
                      actions.push_back(std::move(a));
                      return Status();
                    },
                    buckets);
  RunSummary summary;
  std::vector<std::string> logs;
  for (const char* name : {"1.log.hostX", "1.log.hostY", "2.log.hostX", "2.log.hostY"}) {
    logs.push_back(kSamples + "/epoch2_clat_hist." + name + ".gz");
  }
  Status s = RunPipeline(o, logs, &sink, &summary);
  EXPECT_TRUE(s.ok()) << s.message();
  return actions;
}

// `push --out` then `load` sends what a direct push sends, to either kind of server: every
// document byte for byte (real logs: the carry's order, records straddling quanta).
TEST(DocumentSink, FilesLoadAsADirectPushWrites) {
  const std::vector<BulkAction> file = Push(BucketForm::kFile);
  for (BucketForm direct : {BucketForm::kHistogram, BucketForm::kCompact}) {
    const std::vector<BulkAction> want = Push(direct);
    ASSERT_EQ(file.size(), want.size());
    BucketFormChooser chooser(direct == BucketForm::kHistogram);
    size_t buckets = 0;
    for (size_t i = 0; i < file.size(); ++i) {
      BulkAction got = file[i];
      ASSERT_EQ(got.index, want[i].index);
      ASSERT_EQ(got.id, want[i].id);
      if (got.index.find("-buckets") != std::string::npos) {
        ++buckets;
        Status s = chooser.Choose(&got.source);
        ASSERT_TRUE(s.ok()) << s.message();
      }
      ASSERT_EQ(got.source, want[i].source) << "action " << i;
    }
    EXPECT_GT(buckets, 100u);
    // Job documents are rewritten for either server; compact ones only for the histogram.
    EXPECT_EQ(chooser.rewritten(), buckets);
  }
}

}  // namespace
}  // namespace fiohist
