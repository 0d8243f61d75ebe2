// fiohist_es_cli: the command table of `fiohist` (cli/commands.h) without src/cli/main.cc,
// so the integration tests exercise exactly the functions `fiohist` calls.
#include "cli/commands.h"

int main(int argc, char** argv) { return fiohist::RunFiohist(argc, argv); }
