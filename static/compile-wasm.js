// Compiles the page's WebAssembly on this worker thread and hands the module to
// the page (see pattern_script in Trunk.toml). Decoding a module of a megabyte
// takes tens of milliseconds; on the page's own thread that would be one long
// task, during which a click or a scroll waits. The page falls back to
// compiling it itself when this posts null or cannot run at all.
onmessage = async ({ data: url }) => {
  try {
    postMessage(await WebAssembly.compileStreaming(fetch(url)));
  } catch {
    postMessage(null);
  }
};
