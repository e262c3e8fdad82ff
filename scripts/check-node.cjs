// Runs before `npm start`, `npm run start:worker` and the admin CLI, on whatever Node the machine has:
// plain ES5 so that an old Node reaches the one line below instead of a syntax or undici error.
var required = require('../package.json')
  .engines.node.replace(/^>=\s*/, '')
  .split('.')
  .map(Number);
var actual = process.versions.node.split('.').map(Number);
var tooOld = actual[0] < required[0] || (actual[0] === required[0] && (actual[1] || 0) < (required[1] || 0));
if (tooOld) {
  console.error('Dropline needs Node \u2265 ' + required.join('.') + ' (26 recommended): run `source scripts/node26.sh` (this is Node ' + process.versions.node + ')');
  process.exit(1);
}
