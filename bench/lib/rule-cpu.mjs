// Preloaded (node --import) into the ESLint processes of measure 3: the CPU time (process-wide,
// as every CPU figure of the bench) spent in the listeners of one rule, next to ESLint's TIMING,
// which is wall-clock time and so grows with the load on a shared machine.
//
//   SOURCED_BENCH_RULE=require-data-tool-output   the rule's name within its plugin
//
// The rule's `create` is wrapped where its plugin module is loaded; at exit one line
// `SOURCED_BENCH_RULE_CPU {"ms":…,"mainMs":…,"files":…}` goes to stderr. Per file, `ruleCpu.perFile`
// holds the time of each `create` (one per linted file) for a caller in the same process.
//
// `ms` counts every thread of the process while a listener runs, `mainMs` the main thread alone
// (the rule's own code and the checker answering it). The difference is V8's helper threads
// (concurrent marking and sweeping, compiling) working meanwhile, for the rule or for anything the
// typed lint allocated before it: on a machine of few cores they take a core for it.
import Module from "node:module";

const ruleName = process.env.SOURCED_BENCH_RULE;
const ruleCpu = { ms: 0, mainMs: 0, files: 0, perFile: [] };
globalThis.__sourcedBenchRuleCpu = ruleCpu;

function wrap(rule) {
  const create = rule.create;
  rule.create = function (context) {
    const listeners = create.call(this, context);
    const file = { ms: 0, mainMs: 0 };
    ruleCpu.files += 1;
    ruleCpu.perFile.push(file);
    const timed = {};
    for (const [selector, listener] of Object.entries(listeners)) {
      timed[selector] = function (...args) {
        const started = process.cpuUsage();
        const startedMain = process.threadCpuUsage();
        try {
          return listener.apply(this, args);
        } finally {
          const spent = process.cpuUsage(started);
          const spentMain = process.threadCpuUsage(startedMain);
          const ms = (spent.user + spent.system) / 1000;
          const mainMs = (spentMain.user + spentMain.system) / 1000;
          file.ms += ms;
          file.mainMs += mainMs;
          ruleCpu.ms += ms;
          ruleCpu.mainMs += mainMs;
        }
      };
    }
    return timed;
  };
}

if (ruleName) {
  delete process.env.SOURCED_BENCH_RULE; // not for grandchildren
  const load = Module._load;
  const wrapped = new WeakSet();
  Module._load = function (...args) {
    const exports = load.apply(this, args);
    const rule = exports?.rules?.[ruleName] ?? exports?.default?.rules?.[ruleName];
    if (rule && typeof rule.create === "function" && !wrapped.has(rule) && !Object.isFrozen(rule)) {
      wrapped.add(rule);
      wrap(rule);
    }
    return exports;
  };
  process.on("exit", () => process.stderr.write(`\nSOURCED_BENCH_RULE_CPU ${JSON.stringify({ ms: ruleCpu.ms, mainMs: ruleCpu.mainMs, files: ruleCpu.files })}\n`));
}
