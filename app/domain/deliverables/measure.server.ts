/**
 * The measure service behind GET …/elevation, POST …/volume, POST …/change and the Map view's no-JS
 * volume form: who may measure (whoever may download the deliverable: the project's client,
 * its assigned pilot, admins), on which file (an `elevation` deliverable of that project),
 * and a per-user ceiling, since each call runs GDAL (through the pool, `gdal.server.ts`: an
 * account's share of it, and the request's signal stops its children).
 */
import { perMinuteLimiter } from '#app/domain/auth/rate-limit.server.ts'
import { getDownloadableFile } from '#app/domain/files/file-queries.server.ts'
import { FILE_MESSAGES } from '#app/domain/files/rules.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { withLocalFile } from '#app/lib/storage/file-cache.server.ts'
import type { ProjectFile, User } from '#db/schema.ts'

import { minimumChangeM } from './change-settings.ts'
import { elevationChangeOver } from './elevation-change.server.ts'
import {
  MEASURE_MESSAGES,
  type ChangeFigures,
  type VolumeBase,
  type VolumeFigures,
} from './measure-schemas.ts'
import { elevationAt, volumeOver } from './raster-measure.server.ts'
import { getDeliverableSettings } from './settings.server.ts'

type Actor = Pick<User, 'id' | 'role'>

const MEASURES_PER_MINUTE = 120
const MEASURE_LIMIT_MESSAGE = 'Too many measurements. Please wait a minute and try again.'
const measureLimit = perMinuteLimiter(MEASURES_PER_MINUTE, MEASURE_LIMIT_MESSAGE)

/** One GDAL measure against the per-user ceiling (429 over it). */
export async function countMeasure(userId: number) {
  await measureLimit.consume(`measure:${userId}`)
}

/** One made through a share link, against the link's own ceiling: its holder never spends the client's. */
export async function countSharedMeasure(shareLinkId: number) {
  await measureLimit.consume(`measure:share:${shareLinkId}`)
}

/** The stored path of a project's elevation deliverable this user may see; 404 / 400 otherwise. */
export function requireElevationModel(user: Actor, projectId: number, fileId: number, db: DbOrTx) {
  const { file, path } = getDownloadableFile(user, fileId, db)
  if (file.projectId !== projectId || file.fileCategory !== 'processed_deliverable')
    throw new DomainError(404, FILE_MESSAGES.notFound)
  if (file.deliverableKind !== 'elevation') throw new DomainError(400, MEASURE_MESSAGES.notElevation)
  return path
}

/** The request's signal: a client gone stops its GDAL. */
type Stop = { signal?: AbortSignal }

export async function measureElevation(
  user: Actor,
  projectId: number,
  fileId: number,
  point: { lat: number; lng: number },
  { signal }: Stop = {},
  db: DbOrTx = getDb(),
): Promise<{ elevationM: number | null }> {
  const path = requireElevationModel(user, projectId, fileId, db)
  await countMeasure(user.id)
  return { elevationM: await elevationAt({ accountId: user.id, signal }, path, point) }
}

export async function measureVolume(
  user: Actor,
  projectId: number,
  fileId: number,
  input: { ring: [number, number][]; base: VolumeBase },
  { signal }: Stop = {},
  db: DbOrTx = getDb(),
): Promise<VolumeFigures> {
  const path = requireElevationModel(user, projectId, fileId, db)
  await countMeasure(user.id)
  return withLocalFile(path, (local) =>
    volumeOver({ accountId: user.id, signal }, local, input.ring, input.base),
  )
}

/**
 * An elevation model a site comparison may read: the project's client (the file's project is
 * theirs and completed, as for a download) or an admin. Pilots and everyone else get 404.
 */
function requireComparableModel(user: Actor, fileId: number, db: DbOrTx) {
  if (user.role !== 'client' && user.role !== 'admin') throw new DomainError(404, FILE_MESSAGES.notFound)
  const { file, path } = getDownloadableFile(user, fileId, db)
  if (file.fileCategory !== 'processed_deliverable') throw new DomainError(404, FILE_MESSAGES.notFound)
  if (file.deliverableKind !== 'elevation') throw new DomainError(400, MEASURE_MESSAGES.changeNotElevation)
  return { file, path }
}

/** This project's elevation model minus `againstFileId` (another survey's, normally the earlier one) over a ring. */
export async function measureChange(
  user: Actor,
  projectId: number,
  fileId: number,
  input: { againstFileId: number; ring: [number, number][] },
  { signal }: Stop = {},
  db: DbOrTx = getDb(),
): Promise<ChangeFigures> {
  const later = requireComparableModel(user, fileId, db)
  if (later.file.projectId !== projectId) throw new DomainError(404, FILE_MESSAGES.notFound)
  const earlier = requireComparableModel(user, input.againstFileId, db)
  if (earlier.file.id === later.file.id) throw new DomainError(400, MEASURE_MESSAGES.sameFile)
  await countMeasure(user.id)
  return withLocalFile(later.path, (laterPath) =>
    withLocalFile(earlier.path, (earlierPath) =>
      elevationChangeOver({ accountId: user.id, signal }, laterPath, earlierPath, input.ring),
    ),
  )
}

/** The change map's minimum change (m) for two elevation models (drawing only): the admin's floor or 2 × their coarser GSD. */
export function minimumChangeFor(files: Array<Pick<ProjectFile, 'rasterInfo'>>, db: DbOrTx = getDb()) {
  return minimumChangeM(
    getDeliverableSettings(db).changeMinimumCm,
    files.map((f) => f.rasterInfo?.gsdCm),
  )
}
