/**
 * What the 3D view (`/projects/{id}/3d`, `/s/{token}/3d`) shows: the project's models and point
 * clouds as sources the browser streams by Range (COPC and GLB as uploaded, a plain LAS/LAZ's
 * thinned copy, an OBJ ZIP's GLB, ODM's 3D Tiles from the processing job's folder), their facts,
 * the still image (uploaded by the first browser of the project's owner or an admin that drew
 * them) and the downloads. Every stored file is read through the store (FILE_STORE=s3).
 * Access is the Map view's: signed in, who may see the project's deliverables; else a share link's files.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { DELIVERABLE_MESSAGES, type Deliverable } from '#app/domain/deliverables/deliverable.ts'
import {
  deliverableRowWithoutAccessCheck,
  deliverablesWithoutAccessCheck,
  listDeliverables,
  type ViewFileToSend,
} from '#app/domain/deliverables/deliverables.server.ts'
import { getDownloadableFile, releasedDeliverablesWhere } from '#app/domain/files/file-queries.server.ts'
import { jobFolder, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import type { OpenShare } from '#app/domain/sharing/share-access.server.ts'
import { readCloudFacts, THREE_D_COPY } from '#app/domain/threed/three-d-copies.server.ts'
import { THREE_D_MESSAGES, type ThreeDSource } from '#app/domain/threed/three-d.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { isStoredFile, storedFileStat } from '#app/lib/storage/file-cache.server.ts'
import {
  localPathOfKey,
  queueStoredFile,
  removeStoredFile,
  STILLS_FOLDER_KEY,
  storageKeyOf,
  storedKeysUnder,
} from '#app/lib/storage/outbox.server.ts'
import { deliverableViews, projectFiles, type User } from '#db/schema.ts'
import { eq, isNull } from 'drizzle-orm'

type Actor = Pick<User, 'id' | 'role'>

/**
 * What the viewer reads of a deliverable: the original (COPC, GLB), the view job's copy, or
 * the reduced copy of a point cloud (all a view-only share link reads).
 */
export const THREE_D_FILES = ['source', 'cloud', 'model', 'reduced'] as const
export type ThreeDFile = (typeof THREE_D_FILES)[number]

interface Routes {
  file: (fileId: number, which: ThreeDFile) => string
  tiles: (jobId: number, rest: string) => string
  still: string
}

const TILESETS = ['model/tileset.json', 'tileset.json']

function is3d(d: Deliverable) {
  return (d.kind === 'point_cloud' || d.kind === 'model_3d') && !d.removedAt
}

/**
 * The 3D Tiles unpacked by the jobs whose 3D deliverables are shown: the tiles follow their
 * job's deliverables (the same rule, so a held, failed or replaced job's tiles never show).
 */
function tilesetsOf(deliverables: Deliverable[], jobOf: Map<number, number | null>) {
  const jobs = new Set(deliverables.filter(is3d).flatMap((d) => jobOf.get(d.id) ?? []))
  return [...jobs].flatMap((jobId) => {
    const tileset = TILESETS.find((t) => isStoredFile(path.join(jobFolder(jobId), '3d_tiles', t)))
    return tileset ? [{ jobId, tileset }] : []
  })
}

/**
 * The sources of the deliverables (ready copies only), tiles first in place of their job's GLB.
 * `viewOnly` (a share link without downloads): point clouds as their reduced copy, no models
 * (`withheld` counts them). `key` names what a still image shows, the same for every audience.
 */
async function sourcesOf(
  deliverables: Deliverable[],
  projectId: number,
  routes: Routes,
  db: DbOrTx,
  viewOnly = false,
) {
  const sources: ThreeDSource[] = []
  const shown: string[] = []
  let withheld = 0
  const viewsRoot = storagePaths().views
  const jobOf = new Map(
    deliverables.length
      ? db
          .select({ id: projectFiles.id, jobId: projectFiles.processingJobId })
          .from(projectFiles)
          .where(eq(projectFiles.projectId, projectId))
          .all()
          .map((r) => [r.id, r.jobId])
      : [],
  )
  const tiles = tilesetsOf(deliverables, jobOf)
  for (const t of tiles) {
    shown.push(`tiles:${t.jobId}/${t.tileset}`)
    if (viewOnly) withheld++
    else
      sources.push({
        type: 'tiles',
        fileId: null,
        fileName: '3D Tiles',
        url: routes.tiles(t.jobId, t.tileset),
      })
  }
  let pending = 0
  for (const d of deliverables.filter(is3d)) {
    if (d.view?.status !== 'ready') {
      if (d.view && d.view.status !== 'failed') pending++
      continue
    }
    const base = { fileId: d.id, fileName: d.fileName }
    if (d.kind === 'point_cloud') {
      const facts = await readCloudFacts(d.id)
      if (!facts) continue
      shown.push(`cloud:${d.id}`)
      if (viewOnly) {
        // The reduced copy, labelled as thinned: never the original's points.
        if (facts.reduced)
          sources.push({
            ...base,
            type: 'las',
            url: routes.file(d.id, 'reduced'),
            facts: { ...facts, copc: false, thinned: facts.reduced },
          })
      } else if (facts.copc) sources.push({ ...base, type: 'copc', url: routes.file(d.id, 'source'), facts })
      else sources.push({ ...base, type: 'las', url: routes.file(d.id, 'cloud'), facts })
      continue
    }
    const job = jobOf.get(d.id)
    if (job && tiles.some((t) => t.jobId === job)) continue
    const glb = d.mime === 'model/gltf-binary'
    if (!glb && !isStoredFile(path.join(viewsRoot, String(d.id), THREE_D_COPY.model))) continue
    shown.push(`model:${d.id}`)
    if (viewOnly) withheld++
    else sources.push({ ...base, type: 'glb', url: routes.file(d.id, glb ? 'source' : 'model') })
  }
  return { sources, pending, withheld, key: shown.length ? stillKey(shown) : null }
}

/** Which sources a still image shows: it is made again when they change. */
function stillKey(shown: string[]) {
  return crypto.createHash('sha256').update(shown.join('|')).digest('hex').slice(0, 16)
}

/** Where the projects' still images live (one per project: the newest sources'). */
function stillsFolder() {
  return localPathOfKey(STILLS_FOLDER_KEY)
}

function stillPath(projectId: number, key: string) {
  return path.join(stillsFolder(), `${projectId}-${key}.png`)
}

async function viewData(
  project: { id: number; name: string },
  deliverables: Deliverable[],
  routes: Routes,
  downloadUrlOf: ((d: Deliverable) => string) | null,
  db: DbOrTx,
) {
  const { sources, pending, withheld, key } = await sourcesOf(
    deliverables,
    project.id,
    routes,
    db,
    downloadUrlOf === null,
  )
  const hasStill = key !== null && isStoredFile(stillPath(project.id, key))
  return {
    project,
    sources,
    pending,
    withheld,
    stillUrl: hasStill ? `${routes.still}?v=${key}` : null,
    stillKey: key,
    downloads: deliverables.filter(is3d).map((d) => ({
      id: d.id,
      fileName: d.fileName,
      kind: d.kind,
      sizeBytes: d.sizeBytes,
      url: downloadUrlOf ? downloadUrlOf(d) : null,
    })),
  }
}
export type ThreeDViewData = Awaited<ReturnType<typeof viewData>>

export function signedInRoutes(projectId: number): Routes {
  return {
    file: (fileId, which) => `/api/projects/${projectId}/deliverables/${fileId}/view/${which}`,
    tiles: (jobId, rest) => `/api/projects/${projectId}/3d-tiles/${jobId}/${rest}`,
    still: `/api/projects/${projectId}/3d-still`,
  }
}

/**
 * The signed-in 3D view: who may see the project's deliverables (else 404). `mayLeaveStill`:
 * only the project's owner or an admin leaves the still image others (share links) are shown.
 */
export async function loadThreeDView(user: Actor, projectId: number, db: DbOrTx = getDb()) {
  const project = requireVisibleProject(user, projectId, db)
  const deliverables = listDeliverables(user, projectId, db)
  const view = await viewData(
    { id: project.id, name: project.name },
    deliverables,
    signedInRoutes(project.id),
    (d) => d.downloadUrl,
    db,
  )
  return { ...view, mayLeaveStill: user.role === 'admin' || project.clientId === user.id }
}

/**
 * The 3D view through a share link: the link's files, downloads only when it allows them. A
 * view-only link reads reduced copies only: point clouds thinned to at most half their points,
 * models as the still image.
 */
export async function shareThreeDView(token: string, share: OpenShare, db: DbOrTx = getDb()) {
  const shared = new Set(share.files.map((f) => f.id))
  const deliverables = deliverablesWithoutAccessCheck(share.project.id, db).filter((d) => shared.has(d.id))
  const routes: Routes = {
    file: (fileId, which) => `/s/${token}/files/${fileId}/view/${which}`,
    tiles: (jobId, rest) => `/s/${token}/3d-tiles/${jobId}/${rest}`,
    still: `/s/${token}/3d-still`,
  }
  return viewData(
    { id: share.project.id, name: share.project.name },
    deliverables,
    routes,
    share.link.allowDownload ? (d) => `/s/${token}/files/${d.id}` : null,
    db,
  )
}

/** On DATA_DIR or, evicted from the cache, in the bucket (sendFile reads it from there). */
function fileToSend(full: string, etag: string, mime: string, downloadName: string): ViewFileToSend {
  const stat = storedFileStat(full)
  if (!stat) throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
  return { path: full, size: stat.size, mime, etag, downloadName, lastModified: stat.mtime }
}

/**
 * A 3D deliverable's file for the viewer, without an access check (the caller made it): the
 * original of a COPC or GLB, or one of the view job's copies. 404 until the view job is done.
 */
export async function threeDFileWithoutAccessCheck(
  projectId: number,
  fileId: number,
  which: ThreeDFile,
  db: DbOrTx = getDb(),
) {
  const file = deliverableRowWithoutAccessCheck(projectId, fileId, db)
  const view = db.select().from(deliverableViews).where(eq(deliverableViews.fileId, fileId)).get()
  if (file.removedAt || !view || view.status !== 'ready')
    throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
  const stamp = (view.finishedAt ?? view.updatedAt).getTime()
  const etag = `${(file.sha256 ?? String(file.id)).slice(0, 32)}-3d-${which}-${stamp}`
  const base = file.originalName.replace(/\.[^.]*$/, '')
  const root = storagePaths().root
  if (which === 'source') {
    const facts = file.deliverableKind === 'point_cloud' ? await readCloudFacts(file.id) : null
    const streamable = facts?.copc || file.fileType === 'model/gltf-binary'
    if (!streamable) throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
    const full = path.resolve(root, file.fileName)
    if (!full.startsWith(root + path.sep)) throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
    return fileToSend(full, etag, file.fileType, file.originalName)
  }
  const name = { cloud: THREE_D_COPY.cloud, reduced: THREE_D_COPY.reducedCloud, model: THREE_D_COPY.model }[
    which
  ]
  const mime = which === 'model' ? 'model/gltf-binary' : 'application/vnd.las'
  return fileToSend(
    path.join(storagePaths().views, String(file.id), name),
    etag,
    mime,
    `${base}-${which === 'reduced' ? 'view-only' : 'view'}${path.extname(name)}`,
  )
}

/** The viewer's file for a signed-in user who may download the original (404/410 as the download). */
export async function threeDFileFor(
  user: Actor,
  projectId: number,
  fileId: number,
  which: ThreeDFile,
  db = getDb(),
) {
  const { project } = getDownloadableFile(user, fileId, db)
  if (project.id !== projectId) throw new DomainError(404, DELIVERABLE_MESSAGES.notFound)
  return threeDFileWithoutAccessCheck(projectId, fileId, which, db)
}

/**
 * A file of a project's 3D Tiles (tileset JSON, b3dm, glb…), only inside the job's `3d_tiles/`
 * and while the job's 3D deliverables are delivered; no other access check.
 */
export function tilesFileWithoutAccessCheck(
  projectId: number,
  jobId: number,
  rest: string,
  db: DbOrTx = getDb(),
) {
  // A job's tiles are read only while its deliverables are delivered and stored (not held, failed or replaced).
  const shown = db
    .select({ id: projectFiles.id })
    .from(projectFiles)
    .where(
      releasedDeliverablesWhere(
        projectId,
        eq(projectFiles.processingJobId, jobId),
        isNull(projectFiles.removedAt),
      ),
    )
    .get()
  if (!shown) throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
  const root = path.resolve(jobFolder(jobId), '3d_tiles')
  // A NUL or another control character names no file (and would make fs throw): 404.
  // eslint-disable-next-line no-control-regex
  if (rest.length > 500 || /[\u0000-\u001f]/.test(rest))
    throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
  const full = path.resolve(root, rest)
  if (!full.startsWith(root + path.sep)) throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
  const ext = path.extname(full).toLowerCase()
  const mime =
    { '.json': 'application/json', '.glb': 'model/gltf-binary', '.b3dm': 'application/octet-stream' }[ext] ??
    'application/octet-stream'
  const stat = storedFileStat(full)
  return fileToSend(
    full,
    `tiles-${jobId}-${stat?.mtime.getTime() ?? 0}-${stat?.size ?? 0}`,
    mime,
    path.basename(full),
  )
}

/** The still image of the sources drawn now (404 when none was made yet). */
export function stillFileOf(view: ThreeDViewData) {
  if (!view.stillKey) throw new DomainError(404, THREE_D_MESSAGES.noStill)
  const full = stillPath(view.project.id, view.stillKey)
  return fileToSend(full, `still-${view.stillKey}`, 'image/png', `${view.project.name} 3D.png`)
}

/**
 * Keeps the first still image of the current sources that the project's owner or an admin
 * leaves (a PNG, bounded; a later one is ignored; anyone else's is refused), in place of the
 * project's earlier stills, and through the store (the bucket too with FILE_STORE=s3).
 */
export async function saveStill(view: ThreeDViewData & { mayLeaveStill: boolean }, png: Buffer) {
  if (!view.mayLeaveStill) throw new DomainError(403, THREE_D_MESSAGES.stillNotYours)
  if (!view.stillKey || !png.length) throw new DomainError(400, THREE_D_MESSAGES.stillRefused)
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  if (png.length < 33 || !png.subarray(0, 8).equals(signature) || png.toString('latin1', 12, 16) !== 'IHDR')
    throw new DomainError(415, THREE_D_MESSAGES.stillRefused)
  const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)]
  if (!width || !height || width > 4096 || height > 4096)
    throw new DomainError(415, THREE_D_MESSAGES.stillRefused)
  const target = stillPath(view.project.id, view.stillKey)
  if (isStoredFile(target)) return { saved: false }
  await fs.promises.mkdir(path.dirname(target), { recursive: true })
  const partial = `${target}.${crypto.randomBytes(6).toString('hex')}.partial`
  await fs.promises.writeFile(partial, png)
  await fs.promises.rename(partial, target)
  queueStoredFile(storageKeyOf(target)!, { size: png.length })
  // The project's stills of earlier sources are never shown again.
  const mine = `${view.project.id}-`
  for (const key of storedKeysUnder(`${STILLS_FOLDER_KEY}/${mine}`)) {
    if (key !== storageKeyOf(target)) await removeStoredFile(localPathOfKey(key))
  }
  for (const name of await fs.promises.readdir(stillsFolder()).catch(() => [] as string[])) {
    if (name.startsWith(mine) && name.endsWith('.png') && path.join(stillsFolder(), name) !== target)
      await removeStoredFile(path.join(stillsFolder(), name))
  }
  return { saved: true }
}
