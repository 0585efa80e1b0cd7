// Compiles the page's WebAssembly on this worker thread (see pattern_script in
// Trunk.toml). The page fetches the Wasm and hands its download over as it
// arrives; this compiles it while it streams in and posts the compiled module
// back. Decoding a module of a megabyte takes tens of milliseconds: on the
// page's own thread that would be one long task, during which a click or a
// scroll waits. Whatever type the host serves the file as, it is compiled as
// Wasm. On any failure this posts null, and the page compiles it itself.
onmessage = async ({ data: download }) => {
  try {
    const wasm = new Response(download, { headers: { 'content-type': 'application/wasm' } });
    postMessage(await WebAssembly.compileStreaming(wasm));
  } catch {
    postMessage(null);
  }
};
