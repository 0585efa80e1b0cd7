#!/usr/bin/env node
// Trunk post_build hook (see Trunk.toml): completes the page's Content-Security-Policy.
//
// index.html declares the whole policy in a <meta http-equiv="Content-Security-Policy">,
// with the placeholder source 'inline-script-hashes' in script-src. Trunk then writes an
// inline <script type="module"> that loads the Wasm; its text names the hashed file names,
// so it changes with every build. This hook runs on the staged page (for `trunk build`
// and `trunk serve` alike), computes the sha256 of every inline script in it and puts
// those hashes in place of the placeholder: the loader Trunk wrote runs, and no other
// inline script can. It fails the build when the placeholder is missing, so the page
// can never ship without its policy.
//
// Under `trunk serve`, Trunk also adds its live-reload script, whose address and base
// path its server fills in per request (which would change the script's hash). The hook
// fills both in first, with what the server would put there, worked out in the browser
// (the page's own host and folder), so the text served is the text hashed.
//
// Node's standard library only: works offline, with nothing installed.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const PLACEHOLDER = "'inline-script-hashes'";
const staging = process.env.TRUNK_STAGING_DIR ?? process.argv[2];
if (!staging) {
  console.error('csp-hashes: run as a Trunk post_build hook (TRUNK_STAGING_DIR) or give the folder as an argument');
  process.exit(2);
}

/** The live-reload script's per-request placeholders, replaced by what they stand for. */
function fillReloadPlaceholders(html) {
  return html
    .replaceAll("'{{__TRUNK_ADDRESS__}}'", 'window.location.host')
    .replaceAll("'{{__TRUNK_WS_BASE__}}'", "new URL('./', window.location.href).pathname");
}

/** The text of every inline script (a <script> with no src), as the browser hashes it. */
function inlineScripts(html) {
  const scripts = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (!/\bsrc\s*=/i.test(match[1])) scripts.push(match[2]);
  }
  return scripts;
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

let pages = 0;
for (const name of await readdir(staging)) {
  if (!name.endsWith('.html')) continue;
  const file = join(staging, name);
  let html = fillReloadPlaceholders(await readFile(file, 'utf8'));
  if (html.includes('{{__TRUNK_')) {
    console.error(`csp-hashes: ${name} still has a Trunk placeholder its server would change; its hash would not match`);
    process.exit(1);
  }
  const meta = html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i);
  if (!meta || !meta[1].includes(PLACEHOLDER)) {
    console.error(`csp-hashes: ${name} has no Content-Security-Policy meta with ${PLACEHOLDER} in script-src`);
    process.exit(1);
  }
  const hashes = [...new Set(inlineScripts(html).map(sha256))];
  // No inline script at all: drop the placeholder, nothing inline may run.
  const policy = meta[1].replace(` ${PLACEHOLDER}`, hashes.map((h) => ` ${h}`).join(''));
  html = html.replace(meta[1], () => policy);
  await writeFile(file, html);
  pages += 1;
  console.log(`csp-hashes: ${name}: ${hashes.length} inline script(s) allowed by hash`);
}
if (pages === 0) {
  console.error(`csp-hashes: no .html page in ${staging}`);
  process.exit(1);
}
