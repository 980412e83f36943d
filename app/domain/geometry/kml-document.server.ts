/**
 * Reading KML text safely, for every KML the app accepts (the admin's airspace upload,
 * the client's no-JavaScript survey-area upload): a size limit, no DOCTYPE or entity
 * declarations at all (that rules out entity-expansion and external-entity attacks
 * before any parser sees the text), a strict XML parse where any error is fatal, a
 * <kml> root, a cap on placemarks, then @tmcw/togeojson. ADR 042.
 */
import { kml } from '@tmcw/togeojson'
import { DOMParser } from '@xmldom/xmldom'
import type { Feature, FeatureCollection } from 'geojson'

export const KML_MAX_PLACEMARKS = 5000

export class KmlError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 | 415 = 400,
  ) {
    super(message)
  }
}

export function readKmlDocument(text: string, { maxBytes }: { maxBytes: number }): FeatureCollection {
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    const limit =
      maxBytes >= 1024 * 1024 ? `${maxBytes / 1024 / 1024} MB` : `${Math.round(maxBytes / 1024)} KB`
    throw new KmlError(`The KML file is too large (the limit is ${limit})`, 413)
  }
  const body = text.replace(/^\uFEFF/, '')
  if (!body.trim()) throw new KmlError('The KML file is empty')
  if (/<!DOCTYPE/i.test(body) || /<!ENTITY/i.test(body)) {
    throw new KmlError('The KML file contains a DOCTYPE or entity declarations, which are not allowed')
  }
  let doc: ReturnType<DOMParser['parseFromString']>
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message)
      },
    }).parseFromString(body, 'text/xml')
  } catch {
    throw new KmlError('The KML file is not well-formed XML')
  }
  const root = doc.documentElement
  if (!root || root.localName !== 'kml')
    throw new KmlError('The file is not a KML document (no <kml> root element)')
  if (doc.getElementsByTagName('Placemark').length > KML_MAX_PLACEMARKS) {
    throw new KmlError(`The KML file has too many placemarks (the limit is ${KML_MAX_PLACEMARKS})`, 413)
  }
  try {
    const collection = kml(doc as unknown as Document)
    return { type: 'FeatureCollection', features: collection.features as Feature[] }
  } catch {
    throw new KmlError('The KML file could not be read')
  }
}
