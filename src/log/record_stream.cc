#include "log/record_stream.h"

#include "log/issue_stream.h"
#include "log/log_stream.h"
#include "log/per_io_stream.h"

namespace fiohist {

std::unique_ptr<RecordStream> MakeRecordStream(const LogSource& source, const StreamSetup& setup) {
  if (source.per_io) return std::make_unique<PerIoStream>(source, setup);
  if (setup.place_issue) return std::make_unique<IssueLogStream>(source, setup);
  return std::make_unique<LogStream>(source, setup);
}

}  // namespace fiohist
