/** tus requests as a client sends them, for the tests that speak tus over real HTTP. */
import { PNG_BYTES } from '#tests/helpers/files.ts'

/** The Upload-Metadata header: each key with its value in base64. */
export function tusMetadata(values: Record<string, string>) {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',')
}

/** A tus POST to /api/tus on the app at `base`, with `headers` besides Tus-Resumable. */
export function tusPost(base: string, headers: Record<string, string>, body?: BodyInit) {
  return fetch(`${base}/api/tus`, { method: 'POST', headers: { ...headers, 'Tus-Resumable': '1.0.0' }, body })
}

/** Creates an upload of `length` bytes, PNG_BYTES' length unless told, on the app at `base`. */
export function createTusUpload(
  base: string,
  headers: Record<string, string>,
  metadata: string,
  length = PNG_BYTES.length,
) {
  return tusPost(base, { ...headers, 'Upload-Length': String(length), 'Upload-Metadata': metadata })
}
