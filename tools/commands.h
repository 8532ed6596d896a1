/* The gltile program's file commands: transpose and matmul of .npy files. */
#ifndef GT_TOOL_COMMANDS_H
#define GT_TOOL_COMMANDS_H

/* argv[0] is the command's name, argv[1..argc-1] its arguments.
 * Return the exit status: 0 done (or --help), 1 an error in a file, the
 * device or gltile, 2 a usage error. */
int tool_cmd_transpose(int argc, char **argv);
int tool_cmd_matmul(int argc, char **argv);

#endif
