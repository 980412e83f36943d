/**
 * Reading many notes without holding them all (issue 35): the list API's pages (by count and by
 * vertices, in a bounding box), the Map view's list (no shapes), and the exports' stream. A
 * shape is passed on as the JSON text it is stored as, never parsed and written again.
 */
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { personName } from '#app/domain/users/person-name.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { annotations, users, type AnnotationKind, type User } from '#db/schema.ts'
import { and, asc, count, eq, getTableColumns, gt, gte, inArray, lte, sql, type SQL } from 'drizzle-orm'

import type { AnnotationView, NotesPageQuery } from './annotation-schemas.ts'
import { canEditAnnotation, viewOf } from './annotations.server.ts'

type Actor = Pick<User, 'id' | 'role'>

/** A note with its shape as stored JSON text, and the shape's bounds. */
export type RawNote = Omit<AnnotationView, 'geometry'> & {
  geometryJson: string
  bounds: { minLng: number; minLat: number; maxLng: number; maxLat: number }
}

const { geometry: _geometry, ...COLUMNS } = getTableColumns(annotations)

function rawNotes(where: SQL | undefined, db: DbOrTx, limit?: number): RawNote[] {
  const query = db
    .select({
      row: COLUMNS,
      geometryJson: sql<string>`${annotations.geometry}`,
      authorName: personName(users),
    })
    .from(annotations)
    .leftJoin(users, eq(users.id, annotations.authorId))
    .where(where)
    .orderBy(asc(annotations.id))
  return (limit ? query.limit(limit) : query).all().map(({ row, geometryJson, authorName }) => ({
    ...viewOf(row, authorName),
    geometryJson,
    bounds: {
      minLng: row.minLng ?? 0,
      minLat: row.minLat ?? 0,
      maxLng: row.maxLng ?? 0,
      maxLat: row.maxLat ?? 0,
    },
  }))
}

/** Notes on a page of the Map view's list. */
const LIST_PAGE = 50

const notesOf = (projectId: number, db: DbOrTx) =>
  db.select({ n: count() }).from(annotations).where(eq(annotations.projectId, projectId)).get()!.n

/**
 * A page (1-based, clamped) of the Map view's server-rendered list, oldest first, for a member
 * (404 otherwise): the notes without their shapes (the map loads those by bounding box).
 */
export function noteListPage(user: Actor, projectId: number, page: number, db: DbOrTx = getDb()) {
  requireVisibleProject(user, projectId, db)
  const total = notesOf(projectId, db)
  const pages = Math.max(1, Math.ceil(total / LIST_PAGE))
  const current = Math.min(Math.max(1, Math.trunc(page) || 1), pages)
  const rows = db
    .select({ row: COLUMNS, authorName: personName(users) })
    .from(annotations)
    .leftJoin(users, eq(users.id, annotations.authorId))
    .where(eq(annotations.projectId, projectId))
    .orderBy(asc(annotations.createdAt), asc(annotations.id))
    .limit(LIST_PAGE)
    .offset((current - 1) * LIST_PAGE)
    .all()
  const notes = rows.map(({ row, authorName }) => {
    const { authorId, ...view } = viewOf(row, authorName)
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
 * vertices. `nextAfter` is the cursor of the next page (null: this was the last). The answer's
 * JSON is written here: each shape is its stored text.
 */
export function notesPageJson(user: Actor, projectId: number, query: NotesPageQuery, db: DbOrTx = getDb()) {
  requireVisibleProject(user, projectId, db)
  const { bbox } = query
  const candidates = db
    .select({ id: annotations.id, vertices: annotations.vertexCount })
    .from(annotations)
    .where(
      and(
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
      ),
    )
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
  const notes = ids.length ? rawNotes(inArray(annotations.id, ids), db) : []
  const items = notes.map(({ geometryJson, bounds: _bounds, ...note }) => {
    const fields = JSON.stringify({ ...note, canEdit: canEditAnnotation(user, note) })
    return `${fields.slice(0, -1)},"geometry":${geometryJson}}`
  })
  const nextAfter = ids.length < candidates.length ? ids.at(-1)! : null
  return `{"annotations":[${items.join(',')}],"nextAfter":${nextAfter}}`
}

/**
 * @public (exports) A project's notes (of one kind when asked) read a page at a time, oldest
 * first, without an access check: an export streams them without holding them all.
 */
export function* eachAnnotation(projectId: number, kind?: AnnotationKind, db: DbOrTx = getDb()) {
  const PAGE = 50
  for (let after = 0; ; ) {
    const rows = rawNotes(
      and(
        eq(annotations.projectId, projectId),
        gt(annotations.id, after),
        kind ? eq(annotations.kind, kind) : undefined,
      ),
      db,
      PAGE,
    )
    yield* rows
    if (rows.length < PAGE) return
    after = rows.at(-1)!.id
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
