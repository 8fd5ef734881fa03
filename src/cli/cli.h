/* cli.h - subcommands of the warpsim command line (src/cli/). */
#ifndef WS_CLI_H
#define WS_CLI_H

double cli_now(void);
int cli_launch(int argc, char **argv);

#endif
