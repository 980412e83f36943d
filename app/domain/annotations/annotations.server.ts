/**
 * Notes on a project's Map view. Members of the project (its client, the assigned pilot,
 * admins) read and add them; the author edits and deletes their own, admins any; anyone else
 * gets 404. A note's measurement is taken when it is saved (`annotation-measure.server.ts`).
 */
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { personName } from '#app/domain/users/person-name.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { annotations, users, type Annotation, type User } from '#db/schema.ts'
import { and, asc, count, eq, sql } from 'drizzle-orm'

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
} from './annotation-schemas.ts'
import { getMaterials } from './materials.server.ts'
import { densityOf } from './materials.ts'

type Actor = Pick<User, 'id' | 'role'>

/** A note as the API shows it, but its shape (the list and the exports read that as stored text). */
export function viewOf(
  row: Omit<Annotation, 'geometry'>,
  authorName: string | null,
): Omit<AnnotationView, 'geometry'> {
  return {
    id: row.id,
    projectId: row.projectId,
    kind: row.kind,
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

function toView(row: Annotation, authorName: string | null): AnnotationView {
  return { ...viewOf(row, authorName), geometry: row.geometry as AnnotationGeometry }
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
export function canEditAnnotation(user: Actor, note: Pick<AnnotationView, 'authorId'>) {
  return user.role === 'admin' || note.authorId === user.id
}

function requireEditable(user: Actor, projectId: number, annotationId: number, db: DbOrTx) {
  const note = getAnnotation(user, projectId, annotationId, db)
  if (!canEditAnnotation(user, note)) throw new DomainError(403, ANNOTATION_MESSAGES.notYours)
  return note
}

/**
 * The stored columns of a note's input: polygons default to the edge-mean base; a stockpile of a
 * material the admin's table lists takes its density when none is given.
 */
function columnsOf(input: AnnotationInput, db: DbOrTx) {
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
    densityTPerM3:
      polygon && input.stockpileKind
        ? (input.densityTPerM3 ?? densityOf(getMaterials(db), input.material))
        : null,
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
  const columns = columnsOf(input, db)
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
  const columns = columnsOf(input, db)
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
