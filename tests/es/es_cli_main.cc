// fiohist_es_cli: the Elasticsearch subcommands behind a minimal dispatcher, so the
// integration tests exercise exactly the functions `fiohist` calls, without src/main.cc.
#include <cstdio>
#include <cstring>

#include "cli/es_commands.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fiohist_es_cli setup|runs|delete|load [options]\n");
    return 2;
  }
  const char* command = argv[1];
  if (std::strcmp(command, "setup") == 0) return fiohist::RunSetupCommand(argc - 1, argv + 1);
  if (std::strcmp(command, "runs") == 0) return fiohist::RunRunsCommand(argc - 1, argv + 1);
  if (std::strcmp(command, "delete") == 0) return fiohist::RunDeleteCommand(argc - 1, argv + 1);
  if (std::strcmp(command, "load") == 0) return fiohist::RunLoadCommand(argc - 1, argv + 1);
  std::fprintf(stderr, "fiohist_es_cli: unknown command %s\n", command);
  return 2;
}
