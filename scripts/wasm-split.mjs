#!/usr/bin/env node
// Trunk post_build hook (see Trunk.toml): cuts the Wasm into the first load and
// chunks fetched when first used, for a build made with `--features wasm-split`
// (README, "The Wasm split"). Trunk cannot run a splitter between rustc and
// wasm-bindgen itself (trunk-rs/trunk#1022), so this hook redoes that part of the
// build from rustc's own output, which Trunk leaves in cargo's target folder:
//
//   1. wasm-split-cli (from the crate wasm_split_cli_support, see scripts/setup.sh)
//      cuts rustc's Wasm (linked with --emit-relocs) at the `wasm_split` functions
//      (src/ui/deferred.rs) into a main module, the chunks, and __wasm_split.js,
//      the loader the main module imports;
//   2. wasm-bindgen writes the main module's JS glue, keeping the exports the
//      chunks link against (--keep-lld-exports);
//   3. wasm-opt shrinks every module as Trunk would (index.html's data-wasm-opt);
//   4. the chunks and the loader get names with their contents' hash, so a host
//      may cache them for ever and a new release never mixes with an old one;
//      the loader instantiates a chunk from its bytes when a host serves it with
//      another type than application/wasm;
//   5. Trunk's staged JS and Wasm are replaced, under the names index.html uses.
//
// A build without split points (no feature: `trunk serve`, the tests) is left as
// Trunk made it. Chunks are fetched relative to the loader's own address, so the
// built folder works from any sub-path. Fails the build on anything unexpected,
// so a page can never ship half split.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** The import module rustc writes for a split point's loader until the splitter names it. */
const PLACEHOLDER = '__wasm_split_placeholder__';
/** The splitter's loader, as wasm-bindgen's glue imports it. */
const LOADER = '__wasm_split.js';
/** The binary the Rust crate is built as (Cargo.toml's [[bin]]). */
const BIN = 'idempotency-lab';

const staging = process.env.TRUNK_STAGING_DIR;
const source = process.env.TRUNK_SOURCE_DIR ?? process.cwd();
if (!staging) fail('run as a Trunk post_build hook (TRUNK_STAGING_DIR is not set)');
const release = process.env.TRUNK_PROFILE === 'release';

function fail(message) {
  console.error(`wasm-split: ${message}`);
  process.exit(1);
}

function run(command, args) {
  try {
    return execFileSync(command, args, { cwd: source, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    fail(`${command} ${args.join(' ')} failed:\n${error.stderr || error.message}`);
  }
}

const hash = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

const staged = await readdir(staging);
const glue = staged.find((f) => f.startsWith(`${BIN}-`) && f.endsWith('.js'));
if (!glue) fail(`no ${BIN}-*.js in ${staging}`);
const stem = glue.slice(0, -'.js'.length);
const stagedGlue = await readFile(join(staging, glue), 'utf8');
if (!stagedGlue.includes(PLACEHOLDER)) {
  // No split point in this build: Trunk's output is the page's.
  process.exit(0);
}

const targetDir = JSON.parse(run('cargo', ['metadata', '--format-version', '1', '--no-deps'])).target_directory;
const profileDir = release ? 'release' : 'debug';
const input = join(targetDir, 'wasm32-unknown-unknown', profileDir, `${BIN}.wasm`);
const work = await mkdtemp(join(tmpdir(), 'wasm-split-'));
try {
  const split = join(work, 'split');
  const bound = join(work, 'bound');
  run('wasm-split-cli', ['--target', 'web', '--out-name', stem, input, split]);
  run('wasm-bindgen', ['--target', 'web', '--keep-lld-exports', '--no-typescript', '--out-dir', bound, '--out-name', stem, join(split, `${stem}.wasm`)]);

  const html = await readFile(join(source, 'index.html'), 'utf8');
  const level = html.match(/data-wasm-opt="(\w+)"/)?.[1];
  const optimize = async (from, name) => {
    const to = join(work, name);
    if (release && level && level !== '0') run('wasm-opt', [`-O${level}`, from, '--output', to]);
    else await writeFile(to, await readFile(from));
    return readFile(to);
  };

  // The chunks, under names that carry their contents' hash.
  let loader = await readFile(join(split, LOADER), 'utf8');
  const chunks = (await readdir(split)).filter((f) => f.endsWith('.wasm') && f !== `${stem}.wasm`);
  if (chunks.length === 0) fail('the splitter found split points but wrote no chunk');
  for (const chunk of chunks) {
    const bytes = await optimize(join(split, chunk), chunk);
    const named = `${chunk.slice(0, -'.wasm'.length)}-${hash(bytes)}.wasm`;
    const reference = `"./${chunk}"`;
    if (!loader.includes(reference)) fail(`${LOADER} does not name ${chunk}`);
    loader = loader.replaceAll(reference, `"./${named}"`);
    await writeFile(join(staging, named), bytes);
  }

  // A chunk is instantiated as it streams in when served as application/wasm,
  // and from its bytes otherwise (some hosts serve .wasm with another type).
  const streaming = 'WebAssembly.instantiateStreaming(src, imports)';
  if (!loader.includes(streaming)) fail(`${LOADER} no longer instantiates chunks as expected: review this script`);
  loader = loader.replaceAll(streaming, 'instantiateChunk(src, imports)') + `
async function instantiateChunk(fetched, imports) {
    const response = await fetched;
    if (!response.ok) throw new Error(\`\${response.url}: HTTP \${response.status}\`);
    const type = (response.headers.get('content-type') ?? '').split(';')[0].trim();
    if (type === 'application/wasm') return WebAssembly.instantiateStreaming(response, imports);
    return WebAssembly.instantiate(await response.arrayBuffer(), imports);
}
`;
  const loaderName = `__wasm_split-${hash(loader)}.js`;
  await writeFile(join(staging, loaderName), loader);

  // The main module's glue imports the loader by its new name (the Wasm's own
  // import module keeps the old one: only the JS import statements change).
  let js = await readFile(join(bound, `${stem}.js`), 'utf8');
  const importStatement = `from "./${LOADER}"`;
  if (!js.includes(importStatement)) fail(`the main module's glue does not import ${LOADER}`);
  js = js.replaceAll(importStatement, `from "./${loaderName}"`);
  if (js.includes(PLACEHOLDER) || loader.includes(PLACEHOLDER)) fail(`${PLACEHOLDER} is still imported after the split`);
  await writeFile(join(staging, glue), js);
  await writeFile(join(staging, `${stem}_bg.wasm`), await optimize(join(bound, `${stem}_bg.wasm`), 'main.wasm'));

  const size = async (name) => (await readFile(join(staging, name))).length;
  const lines = [`${stem}_bg.wasm ${await size(`${stem}_bg.wasm`)} bytes`];
  for (const name of (await readdir(staging)).filter((f) => f.endsWith('.wasm') && !f.startsWith(stem))) {
    lines.push(`${name} ${await size(name)} bytes`);
  }
  console.log(`wasm-split: ${basename(input)} cut into\n  ${lines.join('\n  ')}`);
} finally {
  await rm(work, { recursive: true, force: true });
}
