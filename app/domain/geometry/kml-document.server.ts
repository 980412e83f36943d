/**
 * Reading KML text safely, for every KML the app accepts (the admin's airspace upload,
 * the client's no-JavaScript survey-area upload): a size limit, no DOCTYPE or entity
 * declarations at all (that rules out entity-expansion and external-entity attacks
 * before any parser sees the text), a strict XML parse where any error is fatal, a
 * <kml> root, a cap on placemarks, then @tmcw/togeojson.
 */
import { kml } from '@tmcw/togeojson'
import { DOMParser } from '@xmldom/xmldom'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { Feature, FeatureCollection } from 'geojson'

const KML_MAX_PLACEMARKS = 5000

/** A KML refusal: a DomainError with the message on the upload's form field. */
export function kmlError(message: string, status: 400 | 413 | 415 = 400, field = 'kmlFile') {
  return new DomainError(status, message, { fieldErrors: { [field]: [message] } })
}

/** Throws kmlError (400/413) naming `field` (default `kmlFile`) when the text is refused. */
export function readKmlDocument(
  text: string,
  { maxBytes, field = 'kmlFile' }: { maxBytes: number; field?: string },
): FeatureCollection {
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    const limit =
      maxBytes >= 1024 * 1024 ? `${maxBytes / 1024 / 1024} MB` : `${Math.round(maxBytes / 1024)} KB`
    throw kmlError(`The KML file is too large (the limit is ${limit})`, 413, field)
  }
  const body = text.replace(/^\uFEFF/, '')
  if (!body.trim()) throw kmlError('The KML file is empty', 400, field)
  if (/<!DOCTYPE/i.test(body) || /<!ENTITY/i.test(body)) {
    throw kmlError(
      'The KML file contains a DOCTYPE or entity declarations, which are not allowed',
      400,
      field,
    )
  }
  let doc: ReturnType<DOMParser['parseFromString']>
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message)
      },
    }).parseFromString(body, 'text/xml')
  } catch {
    throw kmlError('The KML file is not well-formed XML', 400, field)
  }
  const root = doc.documentElement
  if (!root || root.localName !== 'kml')
    throw kmlError('The file is not a KML document (no <kml> root element)', 400, field)
  if (doc.getElementsByTagName('Placemark').length > KML_MAX_PLACEMARKS) {
    throw kmlError(`The KML file has too many placemarks (the limit is ${KML_MAX_PLACEMARKS})`, 413, field)
  }
  try {
    const collection = kml(doc as unknown as Document)
    return { type: 'FeatureCollection', features: collection.features as Feature[] }
  } catch {
    throw kmlError('The KML file could not be read', 400, field)
  }
}
