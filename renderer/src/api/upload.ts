// Browser mode's drag and drop: the dropped file's bytes go to `./upload?name=…` (same origin, the
// auth cookie travels with it); the server saves it and starts a load like openBundle does.
export async function uploadBundle(file: File): Promise<{ jobId: string }> {
  const res = await fetch(`./upload?name=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    body: file,
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/octet-stream' },
  });
  let body: { result?: { jobId: string }; error?: string } = {};
  try {
    body = await res.json();
  } catch {
    throw new Error(`upload of ${file.name} failed: the server answered ${res.status}`);
  }
  if (!res.ok || !body.result) throw new Error(body.error ?? `upload of ${file.name} failed (${res.status})`);
  return body.result;
}
