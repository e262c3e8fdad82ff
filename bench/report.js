'use strict';
/** The markdown table of a run, the machine it ran on, and where both are written. */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { RESULTS_DIR } = require('./lib');

const COMMITTED = path.join(__dirname, 'RESULTS.md');
const START = '<!-- bench:table:start -->';
const END = '<!-- bench:table:end -->';

function machineFacts() {
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    cpu: os.cpus()[0]?.model?.trim() ?? 'unknown',
    memGiB: (os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    loadavg: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}

function markdownTable(rows, facts, quick) {
  const lines = [
    '| # | Benchmark | Dropline | Reference | Ratio | Target | Met |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r, i) =>
        `| ${i + 1} | ${r.name} | ${r.error ? `**failed**: ${r.error.replace(/\|/g, '\\|').slice(0, 200)}` : r.service} | ${r.reference} | ${r.ratio} | ${r.target} | ${r.met ? 'yes' : '**no**'} |`,
    ),
    '',
    `${facts.date} · ${facts.nproc} CPUs (${facts.cpu}) · ${facts.memGiB} GiB RAM · Node ${facts.node} · load average at start ${facts.loadavg}${quick ? ' · **--quick run, not representative**' : ''}`,
  ];
  return lines.join('\n');
}

async function saveResults(table, rows, facts, { commitCopy }) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), `# Dropline benchmarks — latest run\n\n${table}\n`);
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify({ facts, rows }, null, 2)}\n`);
  if (!commitCopy) return;
  const block = `${START}\n${table}\n${END}`;
  const current = fs.existsSync(COMMITTED) ? fs.readFileSync(COMMITTED, 'utf8') : '';
  const next =
    current.includes(START) && current.includes(END)
      ? current.slice(0, current.indexOf(START)) + block + current.slice(current.indexOf(END) + END.length)
      : `# Dropline benchmarks\n\nMeasured by \`npm run bench\` (bench/run.js).\n\n${block}\n`;
  // Formatted as `npm run lint` (prettier --check) wants it, so a saved run passes CI as it is.
  const prettier = require('prettier');
  const options = (await prettier.resolveConfig(COMMITTED)) ?? {};
  fs.writeFileSync(COMMITTED, await prettier.format(next, { ...options, filepath: COMMITTED }));
}

module.exports = { machineFacts, markdownTable, saveResults };
