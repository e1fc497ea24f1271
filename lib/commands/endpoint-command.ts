/**
 * `endpoint start | stop`: the HTTP endpoint of the shell's server, started and stopped from
 * the shell as RDFox's command does, its parameters read from the `endpoint.*` variables.
 * The shell reaches the endpoint through the {@link ShellEndpoint} its embedder gives it
 * (`quadlog shell` does; shells of the HTTP endpoint and of a remote server have none).
 * @module
 */
import { CommandError } from './base.js';
import type { Command } from './commands.js';
import type { Shell, ShellEndpointParameters } from './shell.js';

const SYNTAX = 'endpoint start | stop | status';

/** The endpoint parameters read from `endpoint.<name>` variables. */
const PARAMETERS = ['port', 'host', 'variant', 'object-keep-alive-time', 'max-content-size', 'console'] as const;

/** A duration: milliseconds, or a number with the unit ms, s, min or h (RDFox's form, e.g. `60 s`). */
function milliseconds(name: string, value: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|min|h)?$/.exec(value.trim());
  if (!m) throw new CommandError(`invalid value '${value}' for ${name} (expected milliseconds, or a number with ms, s, min or h)`);
  const factor = { ms: 1, s: 1000, min: 60_000, h: 3_600_000 }[m[2] ?? 'ms'] ?? 1;
  return Math.round(Number(m[1]) * factor);
}

/** The endpoint's parameters from the shell's `endpoint.*` variables. */
export function endpointParameters(shell: Shell): ShellEndpointParameters {
  const out: { -readonly [K in keyof ShellEndpointParameters]: ShellEndpointParameters[K] } = {};
  for (const variable of shell.variableNames()) {
    if (!variable.startsWith('endpoint.')) continue;
    const name = variable.slice('endpoint.'.length);
    const value = shell.variable(variable) ?? '';
    switch (name as (typeof PARAMETERS)[number]) {
      case 'port':
        if (!/^\d+$/.test(value) || Number(value) > 65535) throw new CommandError(`invalid value '${value}' for endpoint.port (expected a port number from 0 to 65535; 0 picks a free port)`);
        out.port = Number(value);
        break;
      case 'host':
        if (value === '') throw new CommandError('endpoint.host is empty (expected a host name or address, such as 127.0.0.1)');
        out.host = value;
        break;
      case 'variant':
        if (value !== 'A' && value !== 'B') throw new CommandError(`invalid value '${value}' for endpoint.variant (expected A or B)`);
        out.variant = value;
        break;
      case 'object-keep-alive-time':
        out.objectKeepAliveTime = milliseconds(variable, value);
        break;
      case 'max-content-size':
        if (!/^\d+$/.test(value) || Number(value) <= 0) throw new CommandError(`invalid value '${value}' for endpoint.max-content-size (expected a positive number of bytes)`);
        out.maxContentBytes = Number(value);
        break;
      case 'console':
        if (value !== 'true' && value !== 'false') throw new CommandError(`invalid value '${value}' for endpoint.console (expected true or false)`);
        out.console = value === 'true';
        break;
      default:
        throw new CommandError(`unknown endpoint parameter '${variable}' (quadlog's endpoint takes ${PARAMETERS.map((p) => `endpoint.${p}`).join(', ')}; unset the others)`);
    }
  }
  return out;
}

/** `endpoint`: start and stop the HTTP endpoint. */
export const endpoint: Command = {
  name: 'endpoint',
  syntax: SYNTAX,
  summary: "start or stop the HTTP endpoint of the shell's server, or tell whether it runs",
  details:
    'Parameters come from variables set before `start`: endpoint.port (default 12110; 0 picks a free port), endpoint.host (default 127.0.0.1), endpoint.variant (A or B), endpoint.object-keep-alive-time (milliseconds, or e.g. `60 s`), endpoint.max-content-size (bytes) and endpoint.console (true or false). ' +
    "The endpoint serves the shell's server: its stores, roles and read policy. Requests sign in with a role and its password; the role of a local `quadlog shell` has a random password nobody knows, so create a role for them (role create … password …, grant …). " +
    'Not available in shells of the HTTP endpoint. RDFox\'s list-requests, show-request and cancel-request are the endpoint\'s /requests resources.',
  keywords: ['start', 'stop', 'status'],
  async run(ctx) {
    const shell = ctx.shell;
    const sub = ctx.args[0];
    if (!sub) throw new CommandError(`endpoint needs a subcommand: start, stop or status (syntax: ${SYNTAX})`);
    const extra = ctx.args[1];
    if (extra) throw new CommandError(`unexpected argument '${extra.text}' (syntax: ${SYNTAX})`, extra);
    const control = shell.endpoint;
    const name = sub.text.toLowerCase();
    if (['list-requests', 'show-request', 'cancel-request'].includes(name)) {
      throw new CommandError(`'endpoint ${name}' is not supported: list, describe and cancel requests with the endpoint's /requests resources (GET /requests, GET or DELETE /requests/<id>)`, sub);
    }
    if (!['start', 'stop', 'status'].includes(name)) throw new CommandError(`unknown subcommand '${sub.text}' (start, stop or status)`, sub);
    if (!control) throw new CommandError(`the endpoint cannot be started or stopped from ${shell.remote ? 'a shell of the HTTP endpoint' : 'this shell'} (it has no server of its own: 'quadlog serve' runs one with its endpoint)`, sub);
    switch (name) {
      case 'start': {
        if (control.url !== undefined) throw new CommandError(`the endpoint is running already at ${control.url} ('endpoint stop' first)`, sub);
        const parameters = endpointParameters(shell);
        ctx.blame = sub;
        const url = await control.start(parameters);
        await ctx.note(`endpoint listening at ${url}\n`);
        return;
      }
      case 'stop':
        if (!(await control.stop())) throw new CommandError('the endpoint is not running', sub);
        await ctx.note('endpoint stopped\n');
        return;
      default:
        await ctx.out(control.url !== undefined ? `endpoint listening at ${control.url}\n` : 'endpoint not running\n');
    }
  },
};
