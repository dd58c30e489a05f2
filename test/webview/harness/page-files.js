// Runs in the test page (page.evaluate of this source): makes files there and hands them to
// the composer as a user would. Plain JavaScript, so nothing the test runner's transpiler adds
// (helpers such as __name) ends up in the page. Types and the caller: page-files.ts.
/** Delivers the files; returns each file's size and base64 so the test can compare what was sent. */
async function deliverFiles(args) {
  const g = globalThis;
  const doc = g.document;
  const toBase64 = (blob) =>
    new Promise((resolve) => {
      const reader = new g.FileReader();
      reader.onload = () => resolve(String(reader.result).split(',')[1] ?? '');
      reader.readAsDataURL(blob);
    });
  const makeFile = async (spec) => {
    if (spec.zeroBytes !== undefined) return new g.File([new Uint8Array(spec.zeroBytes)], spec.name, { type: spec.type });
    if (spec.text !== undefined) return new g.File([spec.text], spec.name, { type: spec.type });
    const canvas = doc.createElement('canvas');
    canvas.width = spec.width;
    canvas.height = spec.height;
    const ctx = canvas.getContext('2d');
    ctx.globalAlpha = spec.alpha ?? 1;
    // Two colours and a gradient, so encoders have something to encode.
    const gradient = ctx.createLinearGradient(0, 0, spec.width ?? 1, spec.height ?? 1);
    gradient.addColorStop(0, '#3366cc');
    gradient.addColorStop(1, '#cc6633');
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, spec.width, spec.height);
    if (spec.noise) {
      const pixels = ctx.createImageData(spec.width, spec.height);
      const chunk = new Uint8Array(65536);
      for (let i = 0; i < pixels.data.length; i += chunk.length) {
        g.crypto.getRandomValues(chunk);
        pixels.data.set(chunk.subarray(0, Math.min(chunk.length, pixels.data.length - i)), i);
      }
      for (let i = 3; i < pixels.data.length; i += 4) pixels.data[i] = 255;
      ctx.putImageData(pixels, 0, 0);
    }
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, spec.type, 0.9));
    return new g.File([blob], spec.name, { type: spec.type });
  };

  const files = [];
  for (const spec of args.files) files.push(await makeFile(spec));
  const transfer = new g.DataTransfer();
  for (const f of files) transfer.items.add(f);
  const textarea = doc.querySelector('textarea.composer-input');
  if (args.how === 'paste') {
    if (args.clipboardText !== undefined) transfer.setData('text/plain', args.clipboardText);
    textarea.focus();
    textarea.dispatchEvent(new g.ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  } else if (args.how === 'drop') {
    const form = doc.querySelector('form.composer');
    form.dispatchEvent(new g.DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    form.dispatchEvent(new g.DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  } else {
    const input = doc.querySelector('form.composer input[type=file]');
    input.files = transfer.files;
    input.dispatchEvent(new g.Event('change', { bubbles: true }));
  }
  const out = [];
  // Bytes only for small files: a 20 MB answer through page.evaluate costs seconds.
  for (const f of files) out.push({ size: f.size, base64: f.size <= 1024 * 1024 ? await toBase64(f) : '' });
  return out;
}
