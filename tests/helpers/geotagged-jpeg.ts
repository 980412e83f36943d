/**
 * Real JPEG bytes with EXIF GPS, made in test code: a 16×12 JPEG (encoded by Chromium's
 * canvas) with an APP1 segment written by piexifjs — the same bytes a drone camera writes
 * for latitude/longitude (degrees, minutes, seconds as rationals with N/S, E/W refs),
 * altitude and DateTimeOriginal.
 */
import piexif from 'piexifjs'

/** A plain 16×12 JPEG without EXIF. */
export const JPEG_BYTES = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAMABADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAbEAACAwEBAQAAAAAAAAAAAAACEQEEEgADMf/EABUBAQEAAAAAAAAAAAAAAAAAAAQF/8QAHREAAQMFAQAAAAAAAAAAAAAAEgATUQIDESEigf/aAAwDAQACEQMRAD8AqpVgsb3JRlJcu1gr4xJTpt9OHoYPBkL+qVw/QzWzIl8cvjhWZZ1CnOWmQHqfV//Z',
  'base64',
)

export interface PhotoTags {
  latitude: number
  longitude: number
  /** Metres above sea level. */
  altitudeM?: number
  /** EXIF local time, `YYYY:MM:DD HH:MM:SS`. */
  takenAt?: string
}

/** The camera a DJI Phantom 4 Pro writes (Make, Model). */
const CAMERA = { [piexif.ImageIFD.Make]: 'DJI', [piexif.ImageIFD.Model]: 'FC6310' }

function withExif(exifData: Record<string, unknown>) {
  const app1 = piexif.dump(exifData)
  return Buffer.from(piexif.insert(app1, JPEG_BYTES.toString('binary')), 'binary')
}

/** The JPEG with a camera's EXIF (make, model, time taken) but no GPS position, as a drone without a fix writes it. */
export function jpegWithoutGps(takenAt = '2026:03:01 09:30:00'): Buffer {
  return withExif({ '0th': CAMERA, Exif: { [piexif.ExifIFD.DateTimeOriginal]: takenAt } })
}

/** The JPEG with EXIF GPS (and altitude, time taken) in an APP1 segment. */
export function geotaggedJpeg(tags: PhotoTags): Buffer {
  const gps: Record<number, unknown> = {
    [piexif.GPSIFD.GPSVersionID]: [2, 3, 0, 0],
    [piexif.GPSIFD.GPSLatitudeRef]: tags.latitude < 0 ? 'S' : 'N',
    [piexif.GPSIFD.GPSLatitude]: piexif.GPSHelper.degToDmsRational(Math.abs(tags.latitude)),
    [piexif.GPSIFD.GPSLongitudeRef]: tags.longitude < 0 ? 'W' : 'E',
    [piexif.GPSIFD.GPSLongitude]: piexif.GPSHelper.degToDmsRational(Math.abs(tags.longitude)),
  }
  if (tags.altitudeM !== undefined) {
    gps[piexif.GPSIFD.GPSAltitudeRef] = tags.altitudeM < 0 ? 1 : 0
    gps[piexif.GPSIFD.GPSAltitude] = [Math.round(Math.abs(tags.altitudeM) * 100), 100]
  }
  const exif: Record<number, unknown> = {}
  if (tags.takenAt) exif[piexif.ExifIFD.DateTimeOriginal] = tags.takenAt
  return withExif({ '0th': CAMERA, Exif: exif, GPS: gps })
}
