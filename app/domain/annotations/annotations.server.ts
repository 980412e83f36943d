/**
 * Notes on a project's Map view. Members of the project (its client, the assigned pilot,
 * admins) read and add them; the author edits and deletes their own, admins any; anyone else
 * gets 404. A note's measurement is taken when it is saved (`annotation-measure.server.ts`).
 */
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { personName } from '#app/domain/users/person-name.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { annotations, users, type Annotation, type AnnotationKind, type User } from '#db/schema.ts'
import { and, asc, count, eq, getTableColumns, gt, gte, inArray, lte, sql } from 'drizzle-orm'

import { measureAnnotation } from './annotation-measure.server.ts'
import {
  ANNOTATION_MESSAGES,
  geometryBounds,
  MAX_ANNOTATIONS_PER_PROJECT,
  MAX_PROJECT_VERTICES,
  normalGeometry,
  type AnnotationGeometry,
  type AnnotationInput,
  type AnnotationView,
  type NotesPageQuery,
} from './annotation-schemas.ts'

type Actor = Pick<User, 'id' | 'role'>

function toView(row: Annotation, authorName: string | null): AnnotationView {
  return {
    id: row.id,
    projectId: row.projectId,
    kind: row.kind,
    geometry: row.geometry as AnnotationGeometry,
    title: row.title,
    note: row.note,
    color: row.color,
    stockpileKind: row.stockpileKind,
    base: row.base,
    baseElevationM: row.baseElevationM,
    material: row.material,
    densityTPerM3: row.densityTPerM3,
    authorId: row.authorId,
    authorName: authorName ?? 'Former user',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    // The stockpile series is read through its own call (`stockpile-series.server.ts`).
    measurement: withTonnes(withoutSeries(row.measurement), row.densityTPerM3),
  }
}

/** A stockpile with a density weighs its net volume × density (tonnes); worked out on reading, so a new density counts at once. */
function withTonnes<M extends Annotation['measurement']>(measurement: M, density: number | null): M {
  if (density === null || measurement.netM3 === undefined) return measurement
  return { ...measurement, tonnes: measurement.netM3 * density }
}

function withoutSeries({ series: _series, ...measurement }: Annotation['measurement']) {
  return measurement
}

function selectNotes(db: DbOrTx) {
  return db
    .select({ row: annotations, authorName: personName(users) })
    .from(annotations)
    .leftJoin(users, eq(users.id, annotations.authorId))
}

/**
 * @public (share links, volume report)
 * Every note of a project, oldest first, without an access check: for callers that decided
 * access themselves. Others call `listAnnotationPage`.
 */
export function annotationsOfProject(projectId: number, db: DbOrTx = getDb()): AnnotationView[] {
  return selectNotes(db)
    .where(eq(annotations.projectId, projectId))
    .orderBy(asc(annotations.createdAt), asc(annotations.id))
    .all()
    .map(({ row, authorName }) => toView(row, authorName))
}

/** Notes on a page of the Map view's list. */
const LIST_PAGE = 50

/**
 * A page (1-based, clamped) of the Map view's server-rendered list, oldest first, for a member
 * (404 otherwise): the notes without their shapes (the map loads those by bounding box).
 */
export function noteListPage(user: Actor, projectId: number, page: number, db: DbOrTx = getDb()) {
  requireVisibleProject(user, projectId, db)
  const { geometry: _geometry, ...columns } = getTableColumns(annotations)
  const total = heldByProject(projectId, db).notes
  const pages = Math.max(1, Math.ceil(total / LIST_PAGE))
  const current = Math.min(Math.max(1, Math.trunc(page) || 1), pages)
  const rows = db
    .select({ row: columns, authorName: personName(users) })
    .from(annotations)
    .leftJoin(users, eq(users.id, annotations.authorId))
    .where(eq(annotations.projectId, projectId))
    .orderBy(asc(annotations.createdAt), asc(annotations.id))
    .limit(LIST_PAGE)
    .offset((current - 1) * LIST_PAGE)
    .all()
  const notes = rows.map(({ row, authorName }) => {
    const {
      geometry: _none,
      authorId,
      ...view
    } = toView({ ...row, geometry: null } as unknown as Annotation, authorName)
    return { ...view, canEdit: canEditAnnotation(user, { authorId }) }
  })
  return { notes, page: current, pages, total }
}

/** Changes whenever a note of the project is added, changed or deleted: the map loads its shapes again. */
export function notesVersion(projectId: number, db: DbOrTx = getDb()) {
  const v = db
    .select({
      n: count(),
      id: sql<number>`coalesce(max(${annotations.id}), 0)`,
      at: sql<number>`coalesce(max(${annotations.updatedAt}), 0)`,
    })
    .from(annotations)
    .where(eq(annotations.projectId, projectId))
    .get()!
  return `${v.n}-${v.id}-${v.at}`
}

/** The project's polygon notes by title (what a volume report can be made for), oldest first. */
export function polygonTitles(projectId: number, db: DbOrTx = getDb()) {
  return db
    .select({ id: annotations.id, title: annotations.title })
    .from(annotations)
    .where(and(eq(annotations.projectId, projectId), eq(annotations.kind, 'polygon')))
    .orderBy(asc(annotations.createdAt), asc(annotations.id))
    .all()
}

/** Vertices in one page of the list at most (a page holds at least one note). */
const PAGE_VERTICES = 20_000

/**
 * One page of a project's notes for a member (404 otherwise), oldest first: after the note
 * `after`, in the box `bbox` when asked, at most `limit` notes and about PAGE_VERTICES
 * vertices. `nextAfter` is the cursor of the next page (null: this was the last).
 */
export function listAnnotationPage(
  user: Actor,
  projectId: number,
  query: NotesPageQuery,
  db: DbOrTx = getDb(),
) {
  requireVisibleProject(user, projectId, db)
  const { bbox } = query
  const where = and(
    eq(annotations.projectId, projectId),
    gt(annotations.id, query.after),
    bbox
      ? and(
          gte(annotations.maxLng, bbox.west),
          lte(annotations.minLng, bbox.east),
          gte(annotations.maxLat, bbox.south),
          lte(annotations.minLat, bbox.north),
        )
      : undefined,
  )
  const candidates = db
    .select({ id: annotations.id, vertices: annotations.vertexCount })
    .from(annotations)
    .where(where)
    .orderBy(asc(annotations.id))
    .limit(query.limit + 1)
    .all()
  const ids: number[] = []
  let vertices = 0
  for (const c of candidates.slice(0, query.limit)) {
    if (ids.length && vertices + c.vertices > PAGE_VERTICES) break
    ids.push(c.id)
    vertices += c.vertices
  }
  const notes = ids.length
    ? selectNotes(db)
        .where(inArray(annotations.id, ids))
        .orderBy(asc(annotations.id))
        .all()
        .map(({ row, authorName }) => ({ ...toView(row, authorName), canEdit: canEditAnnotation(user, row) }))
    : []
  return { annotations: notes, nextAfter: ids.length < candidates.length ? ids.at(-1)! : null }
}

/**
 * @public (exports) A project's notes (of one kind when asked) read a page at a time, oldest
 * first, without an access check: an export streams them without holding them all.
 */
export function* eachAnnotation(projectId: number, kind?: AnnotationKind, db: DbOrTx = getDb()) {
  const PAGE = 50
  for (let after = 0; ; ) {
    const rows = selectNotes(db)
      .where(
        and(
          eq(annotations.projectId, projectId),
          gt(annotations.id, after),
          kind ? eq(annotations.kind, kind) : undefined,
        ),
      )
      .orderBy(asc(annotations.id))
      .limit(PAGE)
      .all()
    for (const { row, authorName } of rows) yield toView(row, authorName)
    if (rows.length < PAGE) return
    after = rows.at(-1)!.row.id
  }
}

/** How many notes of a kind a project has (an export writes a layer only for kinds it has). */
export function countAnnotations(projectId: number, kind: AnnotationKind, db: DbOrTx = getDb()) {
  return db
    .select({ n: count() })
    .from(annotations)
    .where(and(eq(annotations.projectId, projectId), eq(annotations.kind, kind)))
    .get()!.n
}

/** One note of a project this user is a member of (404 for another project's or an unknown one). */
export function getAnnotation(user: Actor, projectId: number, annotationId: number, db: DbOrTx = getDb()) {
  requireVisibleProject(user, projectId, db)
  const found = selectNotes(db)
    .where(and(eq(annotations.id, annotationId), eq(annotations.projectId, projectId)))
    .get()
  if (!found) throw new DomainError(404, ANNOTATION_MESSAGES.notFound)
  return toView(found.row, found.authorName)
}

/** The author or an admin may change a note (403 for other members). */
function canEditAnnotation(user: Actor, note: Pick<AnnotationView, 'authorId'>) {
  return user.role === 'admin' || note.authorId === user.id
}

function requireEditable(user: Actor, projectId: number, annotationId: number, db: DbOrTx) {
  const note = getAnnotation(user, projectId, annotationId, db)
  if (!canEditAnnotation(user, note)) throw new DomainError(403, ANNOTATION_MESSAGES.notYours)
  return note
}

/** The stored columns of a note's input: polygons default to the edge-mean base. */
function columnsOf(input: AnnotationInput) {
  const polygon = input.kind === 'polygon'
  const base = polygon ? (input.base ?? 'edge-mean') : null
  const geometry = normalGeometry(input.geometry)
  return {
    kind: input.kind,
    geometry,
    ...geometryBounds(geometry),
    title: input.title,
    note: input.note,
    color: input.color,
    stockpileKind: polygon ? input.stockpileKind : null,
    base,
    baseElevationM: base === 'typed' ? input.baseElevationM : null,
    material: polygon && input.stockpileKind ? input.material : null,
    densityTPerM3: polygon && input.stockpileKind ? input.densityTPerM3 : null,
  }
}

/** The notes a project holds and their vertices. */
function heldByProject(projectId: number, db: DbOrTx) {
  const held = db
    .select({ notes: count(), vertices: sql<number>`coalesce(sum(${annotations.vertexCount}), 0)` })
    .from(annotations)
    .where(eq(annotations.projectId, projectId))
    .get()!
  return { notes: held.notes, vertices: Number(held.vertices) }
}

/** A new note of `vertices` fits the project's caps (409 with the cap's words otherwise). */
function requireRoomFor(projectId: number, vertices: number, db: DbOrTx) {
  const held = heldByProject(projectId, db)
  if (held.notes >= MAX_ANNOTATIONS_PER_PROJECT) throw new DomainError(409, ANNOTATION_MESSAGES.tooMany)
  requireVertexRoom(held.vertices + vertices)
}

function requireVertexRoom(total: number) {
  if (total > MAX_PROJECT_VERTICES)
    throw new DomainError(409, ANNOTATION_MESSAGES.tooManyVertices(total), {
      fieldErrors: { geometry: [ANNOTATION_MESSAGES.tooManyVertices(total)] },
    })
}

/** The request's signal: a client gone stops the volume's GDAL. */
type Stop = { signal?: AbortSignal }

export async function createAnnotation(
  user: Actor,
  projectId: number,
  input: AnnotationInput,
  { signal }: Stop = {},
  db: DbOrTx = getDb(),
) {
  requireVisibleProject(user, projectId, db)
  const columns = columnsOf(input)
  // Refused before GDAL measures it, and again in the write (another note may have come meanwhile).
  requireRoomFor(projectId, columns.vertexCount, db)
  const measurement = await measureAnnotation(user, projectId, columns, { signal }, db)
  const id = db.transaction((tx) => {
    requireRoomFor(projectId, columns.vertexCount, tx)
    return tx
      .insert(annotations)
      .values({ projectId, authorId: user.id, ...columns, measurement })
      .returning({ id: annotations.id })
      .get().id
  })
  return getAnnotation(user, projectId, id, db)
}

export async function updateAnnotation(
  user: Actor,
  projectId: number,
  annotationId: number,
  input: AnnotationInput,
  { signal }: Stop = {},
  db: DbOrTx = getDb(),
) {
  requireEditable(user, projectId, annotationId, db)
  const columns = columnsOf(input)
  const measurement = await measureAnnotation(user, projectId, columns, { signal }, db)
  db.transaction((tx) => {
    // Checked again inside the write: the note may have gone while GDAL measured.
    requireEditable(user, projectId, annotationId, tx)
    const before = tx
      .select({ vertices: annotations.vertexCount })
      .from(annotations)
      .where(eq(annotations.id, annotationId))
      .get()!
    if (columns.vertexCount > before.vertices)
      requireVertexRoom(heldByProject(projectId, tx).vertices - before.vertices + columns.vertexCount)
    tx.update(annotations)
      .set({ ...columns, measurement })
      .where(eq(annotations.id, annotationId))
      .run()
  })
  return getAnnotation(user, projectId, annotationId, db)
}

export function deleteAnnotation(user: Actor, projectId: number, annotationId: number, db: DbOrTx = getDb()) {
  db.transaction((tx) => {
    requireEditable(user, projectId, annotationId, tx)
    tx.delete(annotations).where(eq(annotations.id, annotationId)).run()
  })
}
