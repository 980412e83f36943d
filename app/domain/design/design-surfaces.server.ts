/**
 * A project's design surfaces: an admin uploads a LandXML TIN, a GeoTIFF design model or a DXF
 * of 3D faces (multipart `file`, `name`, optional `crs`); the file is kept as sent beside the
 * design raster made from it (`designs/<projectId>/`), and whoever may see the project's
 * deliverables lists them. The design's CRS: the file's own, else the `crs` field, else the
 * CRS of the project's newest elevation model.
 */
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { readableDeliverables } from '#app/domain/deliverables/readable-deliverables.server.ts'
import { decideDownload } from '#app/domain/files/access.server.ts'
import { discard, readMultipartFile } from '#app/domain/files/multipart.server.ts'
import { hashFile } from '#app/domain/files/receive.server.ts'
import { ensureStorage } from '#app/domain/files/storage-paths.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { queueStoredFile, removeStoredFile } from '#app/lib/storage/outbox.server.ts'
import { designSurfaces, type DesignSurface, type DesignSurfaceKind, type User } from '#db/schema.ts'
import { and, asc, eq, inArray, sql } from 'drizzle-orm'

import {
  DESIGN_RASTER_MESSAGES,
  designFacts,
  dxfTriangles,
  geotiffDesign,
  rasteriseTriangles,
  type DesignRun,
  type Triangles,
} from './design-raster.server.ts'
import { parseLandXml } from './landxml.server.ts'

type Actor = Pick<User, 'id' | 'role'>

const MB = 1024 * 1024
/** Upload ceilings: a TIN is read whole into memory (a DXF as GeoJSON from ogr2ogr), a GeoTIFF only by GDAL. */
const MAX_BYTES: Record<DesignSurfaceKind, number> = { landxml: 32 * MB, dxf: 16 * MB, geotiff: 500 * MB }
const MAX_DESIGNS_PER_PROJECT = 50

const DESIGN_MESSAGES = {
  name: 'Give the design surface a name (at most 120 characters).',
  crs: 'The CRS is given as EPSG:code, e.g. EPSG:32734.',
  type: 'The design file is a LandXML TIN (.xml), a GeoTIFF design model (.tif) or a DXF of 3D faces (.dxf).',
  tooLarge: (kind: DesignSurfaceKind) =>
    `A ${kind === 'geotiff' ? 'GeoTIFF' : kind === 'dxf' ? 'DXF' : 'LandXML'} design file is at most ${MAX_BYTES[kind] / MB} MB.`,
  tooMany: `A project keeps at most ${MAX_DESIGNS_PER_PROJECT} design surfaces; delete one first.`,
  notFound: 'Design surface not found',
} as const

/** A design surface as the API and the Map view show it. */
export type DesignSurfaceView = Pick<
  DesignSurface,
  'id' | 'name' | 'kind' | 'originalName' | 'crs' | 'outline' | 'extent' | 'minElevationM' | 'maxElevationM'
> & { createdAt: string }

function toView(row: DesignSurface): DesignSurfaceView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    originalName: row.originalName,
    crs: row.crs,
    outline: row.outline,
    extent: row.extent,
    minElevationM: row.minElevationM,
    maxElevationM: row.maxElevationM,
    createdAt: row.createdAt.toISOString(),
  }
}

/** Whether the user sees the project's deliverables now (a client: once completed, in its window). */
function seesDeliverables(user: Actor, projectId: number, db: DbOrTx) {
  const project = requireVisibleProject(user, projectId, db)
  return decideDownload(user, project, { fileCategory: 'processed_deliverable' }).ok
}

export function listDesignSurfaces(user: Actor, projectId: number, db: DbOrTx = getDb()) {
  if (!seesDeliverables(user, projectId, db)) return []
  return db
    .select()
    .from(designSurfaces)
    .where(eq(designSurfaces.projectId, projectId))
    .orderBy(asc(designSurfaces.createdAt), asc(designSurfaces.id))
    .all()
    .map(toView)
}

/** A design surface of the project the user may read (404 otherwise), with its design raster's path. */
export function requireDesignSurface(user: Actor, projectId: number, designId: number, db: DbOrTx = getDb()) {
  const row = Number.isInteger(designId)
    ? db
        .select()
        .from(designSurfaces)
        .where(and(eq(designSurfaces.id, designId), eq(designSurfaces.projectId, projectId)))
        .get()
    : undefined
  if (!row || !seesDeliverables(user, projectId, db)) throw new DomainError(404, DESIGN_MESSAGES.notFound)
  return { design: toView(row), rasterPath: path.join(ensureStorage().root, row.rasterName) }
}

/** What a file's first bytes say it is (null: none of the three). */
function sniffKind(head: Buffer): DesignSurfaceKind | null {
  const magic = head.subarray(0, 4).toString('latin1')
  if (['II*\0', 'MM\0*', 'II+\0', 'MM\0+'].includes(magic)) return 'geotiff'
  const text = head.toString('utf8').replace(/^\uFEFF/, '')
  if (/^\s*</.test(text)) return 'landxml'
  if (
    text.startsWith('AutoCAD Binary DXF') ||
    /^\s*(?:999\r?\n[^\n]{0,200}\r?\n\s*)?0\r?\nSECTION\r?\n/.test(text)
  )
    return 'dxf'
  return null
}

async function readHead(file: string) {
  const handle = await fs.open(file, 'r')
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** The CRS of the project's newest readable elevation model, if it names an EPSG code. */
function projectCrs(projectId: number, db: DbOrTx) {
  const model = readableDeliverables([projectId], { kind: 'elevation', newestFirst: true }, db).find(
    (f) => f.rasterInfo?.epsg,
  )
  return model ? `EPSG:${model.rasterInfo!.epsg}` : null
}

function triangleCorners(xyz: Float64Array, faces: Uint32Array): Triangles {
  const out = new Float64Array(faces.length * 3)
  for (let i = 0; i < faces.length; i++) out.set(xyz.subarray(faces[i]! * 3, faces[i]! * 3 + 3), i * 3)
  return out
}

/** Builds the design raster `out` from the upload; returns the CRS it was given in when not its own. */
async function buildDesignRaster(
  run: DesignRun,
  kind: DesignSurfaceKind,
  file: string,
  fallbackCrs: string | null,
  work: string,
  out: string,
) {
  if (kind === 'geotiff') return geotiffDesign(run, file, fallbackCrs, out)
  let triangles: Triangles
  let crs = fallbackCrs
  if (kind === 'landxml') {
    const tin = parseLandXml(await fs.readFile(file, 'utf8'))
    triangles = triangleCorners(tin.xyz, tin.faces)
    if (tin.epsg) crs = `EPSG:${tin.epsg}`
  } else triangles = await dxfTriangles(run, file)
  if (!crs) throw new DomainError(400, DESIGN_RASTER_MESSAGES.needCrs)
  await rasteriseTriangles(run, triangles, crs, work, out)
}

/** An admin's upload of a design surface to a project: stored with its design raster (audited). */
export async function createDesignSurface(
  admin: Actor,
  projectId: number,
  request: Request,
  db: DbOrTx = getDb(),
): Promise<DesignSurfaceView> {
  if (admin.role !== 'admin') throw new DomainError(403, 'Forbidden')
  requireVisibleProject(admin, projectId, db)
  const upload = await readMultipartFile(request, { maxBytesFor: () => MAX_BYTES.geotiff })
  const storage = ensureStorage()
  const work = path.join(storage.tmp, `design-${crypto.randomUUID()}`)
  try {
    const name = (upload.fields.name ?? '').trim()
    if (!name || name.length > 120)
      throw new DomainError(400, DESIGN_MESSAGES.name, { fieldErrors: { name: [DESIGN_MESSAGES.name] } })
    const crsField = (upload.fields.crs ?? '').trim().toUpperCase() || null
    if (crsField && !/^EPSG:\d{4,6}$/.test(crsField))
      throw new DomainError(400, DESIGN_MESSAGES.crs, { fieldErrors: { crs: [DESIGN_MESSAGES.crs] } })
    const kind = sniffKind(await readHead(upload.received.path))
    if (!kind)
      throw new DomainError(415, DESIGN_MESSAGES.type, { fieldErrors: { file: [DESIGN_MESSAGES.type] } })
    if (upload.received.size > MAX_BYTES[kind]) throw new DomainError(413, DESIGN_MESSAGES.tooLarge(kind))
    const count = db
      .select({ n: sql<number>`count(*)` })
      .from(designSurfaces)
      .where(eq(designSurfaces.projectId, projectId))
      .get()
    if ((count?.n ?? 0) >= MAX_DESIGNS_PER_PROJECT) throw new DomainError(400, DESIGN_MESSAGES.tooMany)

    await fs.mkdir(work)
    const run = { accountId: admin.id, signal: request.signal }
    const built = path.join(work, 'design.tif')
    await buildDesignRaster(
      run,
      kind,
      upload.received.path,
      crsField ?? projectCrs(projectId, db),
      work,
      built,
    )
    const facts = await designFacts(run, built)

    const stem = `designs/${projectId}/${crypto.randomUUID()}`
    const fileKey = `${stem}.${kind === 'landxml' ? 'xml' : kind === 'dxf' ? 'dxf' : 'tif'}`
    const rasterKey = `${stem}-design.tif`
    const [filePath, rasterPath] = [fileKey, rasterKey].map((key) => path.join(storage.root, key)) as [
      string,
      string,
    ]
    await fs.mkdir(path.dirname(filePath), { recursive: true })
    await fs.rename(built, rasterPath)
    await fs.rename(upload.received.path, filePath)
    const raster = { size: (await fs.stat(rasterPath)).size, sha256: await hashFile(rasterPath) }
    try {
      const row = db.transaction((tx) => {
        const inserted = tx
          .insert(designSurfaces)
          .values({
            projectId,
            name,
            kind,
            originalName: upload.originalName.slice(0, 255),
            fileName: fileKey,
            rasterName: rasterKey,
            ...facts,
            createdBy: admin.id,
          })
          .returning()
          .get()
        queueStoredFile(fileKey, { size: upload.received.size, sha256: upload.received.sha256 }, tx)
        queueStoredFile(rasterKey, raster, tx)
        recordAudit(
          {
            actorId: admin.id,
            action: 'design-surface.create',
            entityType: 'design_surface',
            entityId: inserted.id,
            after: { projectId, name, kind, crs: facts.crs },
          },
          tx,
        )
        return inserted
      })
      return toView(row)
    } catch (error) {
      await Promise.all([fs.rm(filePath, { force: true }), fs.rm(rasterPath, { force: true })])
      throw error
    }
  } finally {
    await Promise.all([discard(upload.received), fs.rm(work, { recursive: true, force: true })])
  }
}

/** An admin deletes a design surface: its row (audited), then its files. */
export async function deleteDesignSurface(
  admin: Actor,
  projectId: number,
  designId: number,
  db: DbOrTx = getDb(),
) {
  if (admin.role !== 'admin') throw new DomainError(403, 'Forbidden')
  requireVisibleProject(admin, projectId, db)
  const row = db
    .select()
    .from(designSurfaces)
    .where(and(eq(designSurfaces.id, designId), eq(designSurfaces.projectId, projectId)))
    .get()
  if (!row) throw new DomainError(404, DESIGN_MESSAGES.notFound)
  db.transaction((tx) => {
    tx.delete(designSurfaces).where(eq(designSurfaces.id, row.id)).run()
    recordAudit(
      {
        actorId: admin.id,
        action: 'design-surface.delete',
        entityType: 'design_surface',
        entityId: row.id,
        before: { projectId, name: row.name, kind: row.kind },
      },
      tx,
    )
  })
  const root = ensureStorage().root
  for (const key of [row.fileName, row.rasterName]) await removeStoredFile(path.join(root, key), db)
}

/**
 * Deletes these projects' design surfaces inside the caller's transaction (an account's
 * deletion); returns their stored files, which the caller removes once it has committed.
 */
export function dropDesignSurfaces(projectIds: number[], tx: DbOrTx) {
  if (!projectIds.length) return []
  const rows = tx.select().from(designSurfaces).where(inArray(designSurfaces.projectId, projectIds)).all()
  if (rows.length) tx.delete(designSurfaces).where(inArray(designSurfaces.projectId, projectIds)).run()
  const root = ensureStorage().root
  return rows.flatMap((row) => [row.fileName, row.rasterName].map((key) => path.join(root, key)))
}
