// Lighthouse (mobile: its default moto g power screen, simulated 4x CPU and slow 4G) on each
// page of a served book, one Chromium for all: `node run.mjs CHROMIUM BASE_URL PATH...`.
// Prints one JSON object: for each path its categories' scores (0-100) and the audits that
// failed in them (score < 0.9), with the performance metrics. Run by bench/bench_lighthouse.py.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const [chromePath, base, ...paths] = process.argv.slice(2);
const chrome = await chromeLauncher.launch({
  chromePath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const out = {};
try {
  for (const path of paths) {
    const started = Date.now();
    const { lhr } = await lighthouse(base + path, { port: chrome.port, logLevel: 'error', output: 'json' }, {
      extends: 'lighthouse:default',
      settings: { disableFullPageScreenshot: true, skipAudits: ['screenshot-thumbnails', 'final-screenshot', 'bf-cache'] },
    });
    const page = { scores: {}, failed: {}, metrics: {}, error: lhr.runtimeError ? lhr.runtimeError.message : null };
    for (const [id, category] of Object.entries(lhr.categories)) {
      page.scores[id] = category.score === null ? null : Math.round(category.score * 100);
      page.failed[id] = category.auditRefs
        .filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 0.9)
        .map((ref) => `${ref.id} ${lhr.audits[ref.id].displayValue || ''}`.trim());
    }
    for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time',
      'cumulative-layout-shift', 'speed-index']) {
      page.metrics[id] = lhr.audits[id] ? lhr.audits[id].displayValue : null;
    }
    // This machine's speed as Lighthouse measured it (about 1,400 on an idle core here, 500-900 under load):
    // the simulated phone's processor is this one's, 4x slower.
    page.benchmarkIndex = lhr.environment.benchmarkIndex;
    page.seconds = (Date.now() - started) / 1000;
    out[path] = page;
  }
} finally {
  await chrome.kill();
}
console.log(JSON.stringify(out));
