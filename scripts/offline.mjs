#!/usr/bin/env node
// Trunk post_build hook (see Trunk.toml), after csp-hashes.mjs: makes a release build
// work offline. It writes sw.js (from offline/sw.js) with this build's version (the
// sha256 of every file, so any change makes a new version) and the list of every file
// of the build, which the service worker keeps whole. A debug build (`trunk serve`)
// gets none: the page registers a worker only when sw.js is listed in index.html's
// <meta name="offline-copy">, which only this hook writes.
//
// Node's standard library only.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

const staging = process.env.TRUNK_STAGING_DIR ?? process.argv[2];
if (!staging) {
  console.error('offline: run as a Trunk post_build hook (TRUNK_STAGING_DIR) or give the folder as an argument');
  process.exit(2);
}
if ((process.env.TRUNK_PROFILE ?? 'release') !== 'release') process.exit(0);

const MARKER = '<meta name="offline-copy" content="sw.js" />';
const indexPath = join(staging, 'index.html');
let index = await readFile(indexPath, 'utf8');
if (!index.includes(MARKER)) {
  if (!index.includes('</head>')) throw new Error('offline: index.html has no </head>');
  index = index.replace('</head>', `  ${MARKER}\n  </head>`);
  await writeFile(indexPath, index);
}

async function files(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(path)));
    else out.push(path);
  }
  return out;
}

const list = (await files(staging))
  .map((path) => relative(staging, path).split(sep).join('/'))
  .filter((path) => path !== 'sw.js')
  .sort();
const hash = createHash('sha256');
for (const path of list) {
  hash.update(path);
  hash.update('\0');
  hash.update(await readFile(join(staging, path)));
}
const version = hash.digest('hex').slice(0, 16);
const template = await readFile(new URL('../offline/sw.js', import.meta.url), 'utf8');
if (!template.includes('__LAB_VERSION__') || !template.includes('__LAB_FILES__')) {
  throw new Error('offline: offline/sw.js lacks its placeholders');
}
await writeFile(
  join(staging, 'sw.js'),
  template.replace("'__LAB_VERSION__'", JSON.stringify(version)).replace('__LAB_FILES__', JSON.stringify(list)),
);
console.log(`offline: sw.js keeps ${list.length} files, version ${version}`);
