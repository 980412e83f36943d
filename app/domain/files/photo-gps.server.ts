/**
 * Where a photo was taken, from its EXIF: GPS latitude/longitude (WGS84),
 * altitude and DateTimeOriginal, read with exifr from the file on disk. exifr reads the
 * file in small chunks from its start (the EXIF block sits in the first kilobytes of a
 * JPEG), never the whole file. A photo without a usable position reads as nulls; a
 * broken file never fails an upload.
 */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { projectFiles } from '#db/schema.ts'
import { eq } from 'drizzle-orm'
import exifr from 'exifr'

export interface PhotoGps {
  gpsLatitude: number | null
  gpsLongitude: number | null
  gpsAltitudeM: number | null
  takenAt: Date | null
}

const NONE: PhotoGps = { gpsLatitude: null, gpsLongitude: null, gpsAltitudeM: null, takenAt: null }

/** Only the GPS and time tags: no thumbnails, maker notes, XMP or colour profiles. */
const OPTIONS: Parameters<typeof exifr.parse>[1] = {
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
  }
}

/** Reads a stored photo's EXIF and records it (with the time it was read, so it is read once). */
export async function recordPhotoGps(fileId: number, file: string, db: DbOrTx = getDb()) {
  const gps = await readPhotoGps(file)
  db.update(projectFiles)
    .set({ ...gps, exifReadAt: new Date() })
    .where(eq(projectFiles.id, fileId))
    .run()
  return gps
}
