/**
 * A LandXML TIN surface (`<Surface><Definition surfType="TIN">`: `<Pnts>` of `<P id>` "northing
 * easting elevation", `<Faces>` of `<F>` "a b c") read in one linear pass of a small XML scanner:
 * strict nesting, no DOCTYPE or ENTITY, capped points, faces and text, every error names its line.
 * Only the first TIN surface is read; faces marked invisible (`i="1"`) are holes and skipped.
 */
import { formatNumber } from '#app/lib/format/numbers.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'

const MAX_TIN_POINTS = 500_000
const MAX_TIN_FACES = 1_000_000
const MAX_DEPTH = 64
/** A point's or face's text is a few numbers: more than this is not one. */
const MAX_VALUE_CHARS = 200
/** A root element's namespaces and schema location fit well inside this. */
const MAX_TAG_CHARS = 8000

const LANDXML_MESSAGES = {
  notXml: (why: string, line: number) => `The LandXML is not well-formed XML: ${why} (line ${line}).`,
  doctype: 'The LandXML may not contain a DOCTYPE or ENTITY declaration.',
  noTin: 'The LandXML has no TIN surface (<Surface><Definition surfType="TIN"> with <Pnts> and <Faces>).',
  point: (line: number) =>
    `The point on line ${line} needs an id and three numbers: northing easting elevation.`,
  duplicate: (id: string, line: number) => `Point ${id} on line ${line} is given twice.`,
  face: (line: number) => `The face on line ${line} needs three point ids.`,
  unknownPoint: (id: string, line: number) =>
    `The face on line ${line} names point ${id}, which the surface does not have.`,
  tooManyPoints: `The TIN has more than ${formatNumber(MAX_TIN_POINTS)} points.`,
  tooManyFaces: `The TIN has more than ${formatNumber(MAX_TIN_FACES)} faces.`,
  noFaces: 'The TIN surface has no faces.',
} as const

export interface Tin {
  /** x (easting), y (northing), z per point. */
  xyz: Float64Array
  /** Three point indices per face. */
  faces: Uint32Array
  /** The file's CoordinateSystem epsgCode, when it gives one. */
  epsg: number | null
}

const NAME = /^[A-Za-z_][\w.:-]{0,99}/
const ATTRIBUTE = /([A-Za-z_][\w.:-]{0,99})\s*=\s*(?:"([^"<]{0,500})"|'([^'<]{0,500})')/g
const NUMBER = /^[+-]?(?:\d{1,15}(?:\.\d{0,15})?|\.\d{1,15})(?:[eE][+-]?\d{1,3})?$/

function lineAt(text: string, position: number) {
  let line = 1
  for (let i = text.indexOf('\n'); i >= 0 && i < position; i = text.indexOf('\n', i + 1)) line++
  return line
}

/** The local name of an element (a namespace prefix dropped). */
const localName = (name: string) => name.slice(name.indexOf(':') + 1)

function attributesOf(body: string) {
  const attributes: Record<string, string> = {}
  for (const match of body.matchAll(ATTRIBUTE)) attributes[localName(match[1]!)] = match[2] ?? match[3] ?? ''
  return attributes
}

type Visitor = {
  open: (name: string, attributes: Record<string, string>, at: number) => void
  text: (chunk: string, at: number) => void
  close: (name: string, at: number) => void
}

/** One pass over the document: every tag opened is closed in order, or a 400 naming the line. */
function scanXml(text: string, visitor: Visitor) {
  const stack: string[] = []
  let rootDone = false
  const fail = (why: string, at: number): never => {
    throw new DomainError(400, LANDXML_MESSAGES.notXml(why, lineAt(text, at)))
  }
  let i = 0
  while (i < text.length) {
    const lt = text.indexOf('<', i)
    const end = lt < 0 ? text.length : lt
    if (end > i) {
      if (stack.length) visitor.text(text.slice(i, end), i)
      else if (text.slice(i, end).trim()) fail('text outside the root element', i)
    }
    if (lt < 0) break
    if (text.startsWith('<!--', lt)) {
      const close = text.indexOf('-->', lt + 4)
      if (close < 0) fail('a comment is not closed', lt)
      i = close + 3
    } else if (text.startsWith('<?', lt)) {
      const close = text.indexOf('?>', lt + 2)
      if (close < 0) fail('a processing instruction is not closed', lt)
      i = close + 2
    } else if (text.startsWith('<![CDATA[', lt)) {
      const close = text.indexOf(']]>', lt + 9)
      if (close < 0 || !stack.length) fail('a CDATA section is not closed', lt)
      visitor.text(text.slice(lt + 9, close), lt)
      i = close + 3
    } else if (text.startsWith('<!', lt)) {
      throw new DomainError(400, LANDXML_MESSAGES.doctype)
    } else {
      const gt = tagEnd(text, lt)
      if (gt < 0) fail('a tag is not closed', lt)
      const body = text.slice(lt + 1, gt)
      if (body.startsWith('/')) {
        const name = body.slice(1).trim()
        const open = stack.pop()
        if (open !== name) fail(open ? `</${name}> closes <${open}>` : `</${name}> closes nothing`, lt)
        visitor.close(localName(name), lt)
        if (!stack.length) rootDone = true
      } else {
        const name = NAME.exec(body)?.[0]
        if (!name) fail('a tag has no name', lt)
        if (rootDone) fail('a second root element', lt)
        const selfClosing = body.endsWith('/')
        visitor.open(localName(name!), attributesOf(body.slice(name!.length)), lt)
        if (selfClosing) {
          visitor.close(localName(name!), lt)
          if (!stack.length) rootDone = true
        } else if (stack.push(name!) > MAX_DEPTH) fail('elements are nested too deep', lt)
      }
      i = gt + 1
    }
  }
  if (!rootDone)
    fail(stack.length ? `the document ends before </${stack.at(-1)}>` : 'no element', text.length)
}

/** Where the tag opened at `lt` ends: its first '>' outside quotes (-1 when it does not). */
function tagEnd(text: string, lt: number) {
  let quote = ''
  for (let gt = lt + 1; gt < text.length && gt - lt < MAX_TAG_CHARS; gt++) {
    const c = text[gt]
    if (quote) {
      if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (c === '>') return gt
    else if (c === '<') return -1
  }
  return -1
}

/** The first TIN surface of a LandXML document, checked: every face names three known points. */
export function parseLandXml(text: string): Tin {
  const xyz: number[] = []
  const faces: number[] = []
  const ids = new Map<string, number>()
  let epsg: number | null = null
  let tin: 'before' | 'in' | 'done' = 'before'
  const path: string[] = []
  type Value = { kind: 'P' | 'F'; id: string; text: string; at: number; hole: boolean }
  let value: Value | null = null
  const wrong = (kind: 'P' | 'F', at: number) =>
    new DomainError(400, LANDXML_MESSAGES[kind === 'P' ? 'point' : 'face'](lineAt(text, at)))

  const addPoint = ({ id, text: numbers, at }: Value) => {
    const parts = numbers.trim().split(/\s+/)
    if (!id || id.length > 64 || parts.length !== 3 || !parts.every((p) => NUMBER.test(p)))
      throw wrong('P', at)
    if (ids.has(id)) throw new DomainError(400, LANDXML_MESSAGES.duplicate(id, lineAt(text, at)))
    if (ids.size >= MAX_TIN_POINTS) throw new DomainError(400, LANDXML_MESSAGES.tooManyPoints)
    ids.set(id, ids.size)
    const [northing, easting, elevation] = parts.map(Number) as [number, number, number]
    xyz.push(easting, northing, elevation)
  }
  const addFace = ({ text: names, at, hole }: Value) => {
    const parts = names.trim().split(/\s+/)
    if (parts.length !== 3 || parts.some((p) => !p)) throw wrong('F', at)
    if (hole) return
    if (faces.length / 3 >= MAX_TIN_FACES) throw new DomainError(400, LANDXML_MESSAGES.tooManyFaces)
    for (const id of parts) {
      const index = ids.get(id)
      if (index === undefined) throw new DomainError(400, LANDXML_MESSAGES.unknownPoint(id, lineAt(text, at)))
      faces.push(index)
    }
  }

  scanXml(text, {
    open(name, attributes, at) {
      path.push(name)
      if (name === 'CoordinateSystem' && epsg === null && /^\d{4,6}$/.test(attributes.epsgCode ?? ''))
        epsg = Number(attributes.epsgCode)
      if (name === 'Definition' && tin === 'before' && path.at(-2) === 'Surface')
        tin = attributes.surfType?.toUpperCase() === 'TIN' ? 'in' : tin
      const parent = path.at(-2)
      if (tin === 'in' && ((name === 'P' && parent === 'Pnts') || (name === 'F' && parent === 'Faces')))
        value = { kind: name, id: attributes.id ?? '', text: '', at, hole: attributes.i === '1' }
    },
    text(chunk) {
      if (!value) return
      if (value.text.length + chunk.length > MAX_VALUE_CHARS) throw wrong(value.kind, value.at)
      value.text += chunk
    },
    close(name) {
      path.pop()
      if (name === 'Definition' && tin === 'in') tin = 'done'
      if (!value || name !== value.kind) return
      const done = value
      value = null
      if (done.kind === 'P') addPoint(done)
      else addFace(done)
    },
  })
  if (tin === 'before' || !ids.size) throw new DomainError(400, LANDXML_MESSAGES.noTin)
  if (!faces.length) throw new DomainError(400, LANDXML_MESSAGES.noFaces)
  return { xyz: Float64Array.from(xyz), faces: Uint32Array.from(faces), epsg }
}
