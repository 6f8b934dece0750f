/*
 * commands.c: what statq's commands are, for help and option parsing: each
 * command's name, the options it takes (a mask of statq_options's), and
 * the texts of `statq --help` and `statq COMMAND --help`. Data only: which
 * function runs a command is main.c's, so that the commands, which look
 * themselves up here (statq_command_find), never call back into main.c.
 */
#include <string.h>

#include "options.h"
/* stat's control codes: the ranges the help names are the ones the control socket applies */
#include "../../src/common/control_codes.h"

#define STATQ_TEXT_(x) #x
#define STATQ_TEXT(x) STATQ_TEXT_(x)

const statq_command statq_commands[] = {
	{"top", STATQ_CMD_TOP,
		"functions by self and inclusive samples, refreshed live (or --once)",
		"top [options]",
		"Shows the functions taking the most samples, like perf top: self samples (the function\n"
		"was executing), inclusive samples (it was anywhere on the stack; needs stat.stack > 0,\n"
		"otherwise equal to self), their percentages of all counted samples, and a header with\n"
		"the samples received and their weighted sum (a late tick's sample counts as the\n"
		"intervals it stands for, its \"weight\", in the table and everywhere statq adds samples\n"
		"up), the sample rate, lost and failed samples and malformed lines. On a terminal the table\n"
		"is redrawn every --refresh seconds until Ctrl-C or the end of the stream; counts are\n"
		"cumulative since statq connected (samples in stat's ring taken before that are left\n"
		"out, and counted as backlog, unless --backlog). With --once, or when stdout is not a\n"
		"terminal, one table is printed when reading stops.\n"
		"\n"
		"example: statq top -s /run/php/stat.stream --once --seconds 10"},
	{"fold", STATQ_CMD_FOLD,
		"collapsed stacks (frame;frame;frame count) for flamegraph.pl, speedscope, Pyroscope",
		"fold [options]",
		"Writes one line per distinct stack: frames root first joined by ';', a space and the\n"
		"number of samples (each counted as its weight), sorted by stack. The counts add up to\n"
		"the samples counted.\n"
		"Frames are \"Scope::function\", \"function\", \"<file.php>\" for a file's top-level code,\n"
		"\"[truncated]\" where stat cut a deep stack. In names, '%' ';' CR and LF are written\n"
		"%25 %3B %0D %0A so that each line stays one stack.\n"
		"\n"
		"example: statq fold -f recording.jsonl | flamegraph.pl > flame.svg"},
	{"flame", STATQ_CMD_FLAME,
		"a self-contained interactive flame graph (one HTML file, no network)",
		"flame [options] -o FILE.html",
		"Writes one HTML file holding the call tree and the script that draws it as SVG: hover\n"
		"for a tooltip (samples, percentage of all and of the zoomed frame, self samples), click\n"
		"a frame to zoom into it, click a frame below or \"reset zoom\" (or Escape) to zoom out,\n"
		"search by substring or regular expression to highlight frames and see their share.\n"
		"Colours: warm for PHP functions, blue for internal functions, green for file top-level\n"
		"code, grey for (idle), [truncated] and group roots. Nothing is fetched from the network.\n"
		"The address can search and zoom at load: flame.html#q=discount&zoom=Cart::checkout\n"
		"\n"
		"example: statq flame -f recording.jsonl -o flame.html"},
	{"speedscope", STATQ_CMD_SPEEDSCOPE,
		"speedscope's JSON file format (sampled profiles, samples in time order)",
		"speedscope [options] -o FILE.json",
		"Writes speedscope's file format (https://www.speedscope.app/file-format-schema.json):\n"
		"shared.frames (name, file) and one \"sampled\" profile per process (or one for all with\n"
		"--merge), samples sorted by their \"elapsed\" time (stat's ring can deliver them out of\n"
		"order), stacks root first. With --weights time (the default) a sample weighs the time\n"
		"since the previous sample of the same request, in seconds; the first sample of a\n"
		"request weighs the median interval times its weight. With --weights count a sample\n"
		"weighs its weight (1, or the intervals a late tick stands for). startValue is the first\n"
		"sample's time, endValue startValue plus the sum of the weights. Open the file at\n"
		"https://www.speedscope.app or with the speedscope command.\n"
		"\n"
		"example: statq speedscope -f recording.jsonl -o profile.speedscope.json"},
	{"record", STATQ_CMD_RECORD,
		"save the stream to a JSON-lines file (for N seconds or until Ctrl-C)",
		"record [options] -o FILE.jsonl",
		"Copies the stream's lines (the status line, samples and \"lost\" lines; malformed lines\n"
		"are skipped and counted) to FILE until --seconds, --samples, the end of the stream, or\n"
		"Ctrl-C. From a socket only samples taken from the moment statq connects are kept (the\n"
		"ring's older samples are counted and left out) unless --backlog. A FILE ending in .gz\n"
		"is written gzip-compressed (every -f reader takes gzip, whatever the name). When stderr\n"
		"is a terminal a progress line shows samples, rate, lost samples and time. The file\n"
		"appears under its name only when recording ends, complete. Read it back with -f.\n"
		"\n"
		"example: statq record -s /run/php/stat.stream --seconds 30 -o recording.jsonl.gz"},
	{"pprof", STATQ_CMD_PPROF,
		"a gzip-compressed pprof profile (go tool pprof, speedscope, Grafana Pyroscope)",
		"pprof [options] -o FILE.pb.gz",
		"Writes the samples as a pprof profile (profile.proto), gzip-compressed whatever the\n"
		"name. Sample types: samples/count, and wall/nanoseconds or cpu/nanoseconds by the\n"
		"clock each sample was taken on (\"clock\"; both when the stream switched). A sample\n"
		"counts as its weight (the intervals a late tick stands for), its time as that many\n"
		"sampling intervals: settings.interval of the stream's status line, or without one (a\n"
		"stat.dump file) the median gap per interval between samples of one request. Stacks\n"
		"are leaf first; functions are named as fold and flame name them, with their file and\n"
		"(closures) start line; locations carry the line. Labels: pid, uri, method, script.\n"
		"\n"
		"example: statq pprof -f recording.jsonl.gz -o profile.pb.gz && go tool pprof -top profile.pb.gz"},
	{"ship", STATQ_CMD_SHIP,
		"forward samples to a Redis stream, in batches, for a fleet's aggregate",
		"ship [-s ADDRESS | -f FILE] --redis ADDRESS --stream KEY [options]",
		"Reads stat's stream (or a recording) and adds the samples to a Redis stream, up to\n"
		"--batch samples per entry (XADD, pipelined, over one connection kept open; MAXLEN ~\n"
		"--maxlen trims the stream). An entry's fields: v=2, type=samples, host, pool, n, first\n"
		"and last (the samples' Unix times), lost, encoding (packed+zstd; packed+gzip with\n"
		"--gzip, packed with --plain) and samples: stat's JSON lines as read (a sample's\n"
		"\"weight\" with it), packed: each distinct frame and stack written once an entry, each\n"
		"line made again byte for byte from them (docs/protocol.md); with --jsonl, v=1 and the\n"
		"lines themselves (jsonl+gzip, or jsonl), each ending in a newline. n counts lines.\n"
		"Redis down or slow never holds up reading: entries wait in memory (--buffer), the\n"
		"connection is tried again (0.1 s to 5 s apart), and what did not fit is dropped,\n"
		"counted, said on stderr and added to the stream as an entry type=dropped (n: since\n"
		"the last one, total). It ends when the stream ends (with --follow it connects again),\n"
		"sending what is queued for up to 5 s, and says how many samples it read, shipped and\n"
		"dropped. Exit 1 when nothing could be shipped.\n"
		"\n"
		"example: statq ship -s /run/php/stat.stream --follow --redis redis://10.0.0.5:6379 --stream stat:samples"},
	{"aggregate", STATQ_CMD_AGGREGATE,
		"fold a Redis stream of samples into hourly and daily flame graphs",
		"aggregate --redis ADDRESS --stream KEY --group NAME --dir DIR [options]",
		"Reads the entries statq ship adds (v2, and v1: --jsonl, or an older ship) through a\n"
		"consumer group (created with the stream when missing) and adds their samples, each as\n"
		"its weight, by the hour and the day they were taken (UTC), to folded stacks:\n"
		"DIR/hourly/YYYY-MM-DD_HH.ENTRY.folded and DIR/daily/YYYY-MM-DD.ENTRY.folded, where\n"
		"ENTRY is `all` or the script (its path with '/' as '_'), each with its flame graph\n"
		"(.html) beside it, and DIR/index.html listing them by day. An entry is acknowledged (XACK) only once its samples are on disk\n"
		"(written, synced, renamed, through a journal so that a crash never counts it twice).\n"
		"Entries left pending by a consumer that died are taken over after --claim-idle\n"
		"seconds. Malformed entries are counted, said and acknowledged. Periods whose end is\n"
		"more than an hour past are gzip-compressed (.folded.gz); files older than\n"
		"--retain-hours / --retain-days are removed. --once processes what the stream holds\n"
		"and exits; otherwise it runs until SIGTERM or Ctrl-C, writing at least every --flush\n"
		"seconds. Memory grows with the distinct stacks of the periods being written, not with\n"
		"the samples. Entries trimmed (ship's --maxlen) before the group read them, and a group\n"
		"Redis lost (a restart without its data), are said on stderr and in DIR/losses.log;\n"
		"--once then exits with status 3.\n"
		"\n"
		"example: statq aggregate --redis redis://10.0.0.5:6379 --stream stat:samples --group flames --dir /var/www/flames"},
	{"ctl", STATQ_CMD_CTL,
		"change a running stat: interval, auto, samplers, arginfo, stack, clock, query, pool_rate",
		"ctl [-c ADDRESS] NAME VALUE [NAME VALUE ...]",
		"Sends control messages to stat's control socket (default " STATQ_DEFAULT_CONTROL ") and\n"
		"reads stat's answer to each. A change applies to every process sharing stat's buffer\n"
		"(the whole pool), not only the one holding the socket.\n"
		"  interval N     sampling interval in microseconds, " STATQ_TEXT(STAT_INTERVAL_MIN) " to " STATQ_TEXT(STAT_INTERVAL_MAX) "\n"
		"  auto on|off    create a sampler for every request automatically\n"
		"  samplers N     most samplers active at once, 0 (unlimited) to " STATQ_TEXT(STAT_SAMPLERS_LIMIT_MAX) "\n"
		"  arginfo on|off collect argument information\n"
		"  stack N        frames per sample, 0 to the stat.stack set at startup (at most " STATQ_TEXT(STAT_STACK_MAX) ")\n"
		"  clock wall|cpu sample every interval of wall-clock time or of the request's CPU time\n"
		"  query none|names|all  what a sample's URI keeps of its query string, for requests\n"
		"                 sampled from now on: lowered, or raised back up to the stat.query\n"
		"                 set at startup, never above it\n"
		"  pool_rate N    stat.sampler=pool: most samples a second for the pool, 0 (no bound) to " STATQ_TEXT(STAT_POOL_RATE_MAX) "\n"
		"on/off also accept 1/0, yes/no, true/false. All pairs are checked before anything is\n"
		"sent. Each applied change prints \"applied NAME VALUE\" (the value now in effect); a\n"
		"change stat refuses prints why (unknown control, out of range, above the startup\n"
		"maximum) and the exit status is 1. A change stat does not answer within 2 seconds\n"
		"(a stalled listener, a stat older than the replies) is an error too: \"no reply\",\n"
		"it may or may not have taken effect (check with statq status), exit status 1.\n"
		"\n"
		"example: statq ctl -c /run/php/stat.control interval 50 arginfo on"},
	{"status", STATQ_CMD_STATUS,
		"the live settings and pool-wide counters of a running stat",
		"status -s ADDRESS [--json]",
		"Connects to stat's stream socket, reads the status line stat sends first to every\n"
		"client, and prints it: stat's version, the listener process (pid, when it started),\n"
		"the live settings (as the control socket left them) and the pool-wide counters\n"
		"(samples written, failed, lost, stream readers, samplers running, ...), then closes\n"
		"the connection. --json prints {\"version\",\"time\",\"listener\",\"settings\",\"counters\"}\n"
		"with the names of stat\\settings() and stat\\counters().\n"
		"\n"
		"example: statq status -s /run/php/stat.stream"},
	{NULL, 0, NULL, NULL, NULL}
};

const statq_command *statq_command_find(const char *name)
{
	const statq_command *command;

	for (command = statq_commands; command->name; command++) {
		if (strcmp(command->name, name) == 0) {
			return command;
		}
	}
	return NULL;
}
