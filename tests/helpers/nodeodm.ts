/**
 * Driving a NodeODM-compatible node from a test (the simulator in server/nodeodm-simulator,
 * or a real NodeODM): JSON calls, geotagged photos, a task made in upload batches, waiting
 * for a status. Errors NodeODM answers as HTTP 200 `{ error }` come back as they are.
 */
import { geotaggedJpeg } from './geotagged-jpeg.ts'

type NodeOdmJson = Record<string, unknown> & { error?: string }
export type TaskInfo = NodeOdmJson & {
  uuid: string
  status: { code: number; errorMessage?: string }
  progress: number
  imagesCount: number
  processingTime: number
}

/** A call to the node: its status, headers, text, and the text as JSON (undefined when it is none). */
export async function nodeOdmCall<Json = NodeOdmJson>(url: string, init?: RequestInit) {
  const res = await fetch(url, init)
  const text = await res.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.status, json: json as Json, text, headers: res.headers }
}

export function postJson<Json = NodeOdmJson>(url: string, body: Record<string, unknown>) {
  return nodeOdmCall<Json>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

export interface Photo {
  name: string
  bytes: Buffer
}

/** `count` drone photos on a line across Cape Town's City Bowl, 130 m above sea level. */
export function dronePhotos(count: number, from = 0): Photo[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `DJI_${String(from + i).padStart(4, '0')}.JPG`,
    bytes: geotaggedJpeg({
      latitude: -33.9301 + (from + i) * 0.00012,
      longitude: 18.4201 + (from + i) * 0.00015,
      altitudeM: 130,
    }),
  }))
}

export function multipart(fields: Record<string, string>, photos: Photo[] = []) {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  for (const p of photos) body.append('images', new Blob([new Uint8Array(p.bytes)]), p.name)
  return { method: 'POST', body } satisfies RequestInit
}

/** init → upload in batches of `batch` → commit; returns the uuid (throws on a NodeODM error). */
export async function createTask(
  base: string,
  opts: {
    name?: string
    options?: Array<{ name: string; value: unknown }>
    photos: Photo[]
    batch?: number
    webhook?: string
  },
) {
  const fields: Record<string, string> = {
    name: opts.name ?? 'Test task',
    options: JSON.stringify(opts.options ?? []),
  }
  if (opts.webhook) fields.webhook = opts.webhook
  const init = await nodeOdmCall(`${base}/task/new/init`, multipart(fields))
  if (!init.json?.uuid) throw new Error(`init failed: ${init.text}`)
  const uuid = init.json.uuid as string
  const batch = opts.batch ?? 10
  for (let i = 0; i < opts.photos.length; i += batch) {
    const up = await nodeOdmCall(
      `${base}/task/new/upload/${uuid}`,
      multipart({}, opts.photos.slice(i, i + batch)),
    )
    if (up.json?.success !== true) throw new Error(`upload failed (${up.status}): ${up.text}`)
  }
  const commit = await nodeOdmCall(`${base}/task/new/commit/${uuid}`, { method: 'POST' })
  if (commit.json?.uuid !== uuid) throw new Error(`commit failed: ${commit.text}`)
  return uuid
}

export async function taskInfo(base: string, uuid: string) {
  return (await nodeOdmCall(`${base}/task/${uuid}/info`)).json as TaskInfo
}

/** Polls the task's info until `done` holds (or the time is up). */
export async function waitForTask(
  base: string,
  uuid: string,
  done: (info: TaskInfo) => boolean = (i) => !!i.error || i.status.code >= 30,
  timeoutMs = 45_000,
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const info = await taskInfo(base, uuid)
    if (done(info)) return info
    if (Date.now() > deadline)
      throw new Error(`Task ${uuid} did not get there in time: ${JSON.stringify(info)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
