/**
 * Where and with what a photo was taken, from its EXIF: GPS latitude/longitude (WGS84),
 * altitude, DateTimeOriginal and the camera (Make, Model), read with exifr from the file on disk. exifr reads the
 * file in small chunks from its start (the EXIF block sits in the first kilobytes of a
 * JPEG), never the whole file. A photo without a usable position reads as nulls; a
 * broken file never fails an upload.
 */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { isStoredFile, withLocalFile } from '#app/lib/storage/file-cache.server.ts'
import { projectFiles } from '#db/schema.ts'
import { eq, isNull } from 'drizzle-orm'
import exifr from 'exifr'

import { keptFilesWhere } from './file-queries.server.ts'
import { absolutePathOf } from './storage-paths.server.ts'

export interface PhotoGps {
  gpsLatitude: number | null
  gpsLongitude: number | null
  gpsAltitudeM: number | null
  takenAt: Date | null
  /** "DJI FC6310": Make and Model as the camera wrote them. */
  camera: string | null
}

const NONE: PhotoGps = {
  gpsLatitude: null,
  gpsLongitude: null,
  gpsAltitudeM: null,
  takenAt: null,
  camera: null,
}

/** Only the camera, GPS and time tags: no thumbnails, maker notes, XMP or colour profiles. */
const OPTIONS: Parameters<typeof exifr.parse>[1] = {
  ifd0: { pick: ['Make', 'Model'] },
  ifd1: false,
  exif: { pick: ['DateTimeOriginal'] },
  gps: {
    pick: [
      'GPSLatitude',
      'GPSLatitudeRef',
      'GPSLongitude',
      'GPSLongitudeRef',
      'GPSAltitude',
      'GPSAltitudeRef',
    ],
  },
  interop: false,
  makerNote: false,
  userComment: false,
  xmp: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/** "DJI" + "FC6310" → "DJI FC6310"; a model that already names its maker stays as it is. */
function cameraOf(make: unknown, model: unknown): string | null {
  const clean = (v: unknown) => (typeof v === 'string' ? v.replace(/\0/g, '').trim().slice(0, 60) : '')
  const [maker, name] = [clean(make), clean(model)]
  if (!maker && !name) return null
  if (!maker || name.toLowerCase().startsWith(maker.toLowerCase())) return name
  return name ? `${maker} ${name}` : maker
}

/** The photo's EXIF position, or nulls (no EXIF, no fix, a 0,0 "no fix" or out-of-range value). */
export async function readPhotoGps(file: string): Promise<PhotoGps> {
  let tags: Record<string, unknown> | undefined
  try {
    tags = await exifr.parse(file, OPTIONS)
  } catch {
    return NONE
  }
  if (!tags) return NONE
  const lat = finite(tags.latitude)
  const lng = finite(tags.longitude)
  const valid =
    lat !== null && lng !== null && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && (lat !== 0 || lng !== 0)
  const altitude = finite(tags.GPSAltitude)
  const ref = tags.GPSAltitudeRef
  const below = (ref instanceof Uint8Array ? ref[0] : ref) === 1
  const taken = tags.DateTimeOriginal instanceof Date && !Number.isNaN(tags.DateTimeOriginal.getTime())
  return {
    gpsLatitude: valid ? lat : null,
    gpsLongitude: valid ? lng : null,
    gpsAltitudeM: valid && altitude !== null ? (below ? -altitude : altitude) : null,
    takenAt: taken ? (tags.DateTimeOriginal as Date) : null,
    camera: cameraOf(tags.Make, tags.Model),
  }
}

/** Reads a stored photo's EXIF and records it (with the time it was read, so it is read once). */
async function recordPhotoGps(fileId: number, file: string, db: DbOrTx = getDb()) {
  const gps = await readPhotoGps(file)
  db.update(projectFiles)
    .set({ ...gps, exifReadAt: new Date() })
    .where(eq(projectFiles.id, fileId))
    .run()
  return gps
}

/** Reads the EXIF of the project's kept raw photos never read (stored before positions were read at upload). */
export async function readUnreadPhotos(projectId: number, db: DbOrTx = getDb()) {
  const unread = db
    .select({ id: projectFiles.id, fileName: projectFiles.fileName })
    .from(projectFiles)
    .where(keptFilesWhere(projectId, 'raw_image', isNull(projectFiles.exifReadAt)))
    .all()
  for (const file of unread) {
    const full = absolutePathOf(file)
    // A file gone from disk is the start-up sweep's business; it stays unread until then.
    if (isStoredFile(full)) await withLocalFile(full, (local) => recordPhotoGps(file.id, local, db))
  }
  return unread.length
}
