/**
 * Notes that cannot sink the server (issue 35): the list is paged (by count and by vertices) and
 * read by bounding box; the Map view's page carries a page of the list and no shapes; a project
 * holds at most 500 notes and 100 000 vertices, each refusal in words.
 */
import { geometryBounds, type AnnotationGeometry } from '#app/domain/annotations/annotation-schemas.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as noteRoute from '#app/routes/api.projects.$id.annotations.$annotationId.ts'
import * as notesRoute from '#app/routes/api.projects.$id.annotations.ts'
import * as mapRoute from '#app/routes/projects.$projectId.map.tsx'
import { annotations } from '#db/schema.ts'
import { projectWithTeam } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { describe, expect, test } from 'vitest'

type Page = {
  annotations: Array<{ id: number; canEdit: boolean; geometry: unknown }>
  nextAfter: number | null
}

/** A ring of `corners` corners around (lng, lat), closed. */
function ring(lng: number, lat: number, corners: number): [number, number][] {
  const points = Array.from({ length: corners }, (_, i) => {
    const a = (2 * Math.PI * i) / corners
    return [lng + 0.0002 * Math.cos(a), lat + 0.0002 * Math.sin(a)] as [number, number]
  })
  return [...points, points[0]!]
}

/** Notes stored straight in the table (as the API stores them), fast. */
function storeNotes(projectId: number, authorId: number, shapes: AnnotationGeometry[]) {
  for (const geometry of shapes)
    getDb()
      .insert(annotations)
      .values({
        projectId,
        authorId,
        kind: geometry.type === 'Point' ? 'point' : geometry.type === 'LineString' ? 'line' : 'polygon',
        geometry,
        title: 'Stored',
        color: '#e11d48',
        measurement: {},
        ...geometryBounds(geometry),
      })
      .run()
}

/** A completed project whose client's notes are `shapes` (stored straight in the table). */
async function projectWithNotes(shapes: AnnotationGeometry[]) {
  const team = await projectWithTeam({ status: 'completed', completedAt: new Date() })
  storeNotes(team.project.id, team.client.user.id, shapes)
  return team
}

/** `count` polygons of `corners` corners, a row eastward from (lng, lat). */
function polygonsInRow(count: number, lng: number, lat: number, corners: number): AnnotationGeometry[] {
  return Array.from({ length: count }, (_, i) => ({
    type: 'Polygon' as const,
    coordinates: [ring(lng + i * 1e-3, lat, corners)],
  }))
}

/** `count` points `step` degrees apart, a row eastward from (18.42, -33.92). */
function pointsInRow(count: number, step: number) {
  return Array.from({ length: count }, (_, i) => point(18.42 + i * step, -33.92))
}

function list(headers: Record<string, string>, projectId: number, query = '') {
  return callRoute(notesRoute.loader, `/api/projects/${projectId}/annotations${query}`, {
    headers,
    params: { id: String(projectId) },
  })
}

function create(headers: Record<string, string>, projectId: number, geometry: AnnotationGeometry) {
  const kind = geometry.type === 'Point' ? 'point' : geometry.type === 'LineString' ? 'line' : 'polygon'
  return callRoute(notesRoute.action, `/api/projects/${projectId}/annotations`, {
    headers,
    json: { kind, geometry, title: 'New' },
    params: { id: String(projectId) },
  })
}

const point = (lng: number, lat: number): AnnotationGeometry => ({ type: 'Point', coordinates: [lng, lat] })

describe('GET …/annotations, paged', () => {
  test('pages by count, then by vertices; `after` walks them all; each note says whether it may be changed', async () => {
    const { project, client, pilot } = await projectWithNotes(pointsInRow(5, 1e-4))
    const ids: number[] = []
    let after = 0
    for (let guard = 0; guard < 10; guard++) {
      const res = await list(pilot.headers, project.id, `?limit=2&after=${after}`)
      expect(res.status).toBe(200)
      const page = await readJson<Page>(res)
      expect(page.annotations.length).toBeLessThanOrEqual(2)
      ids.push(...page.annotations.map((n) => n.id))
      expect(page.annotations.every((n) => n.canEdit === false)).toBe(true)
      if (page.nextAfter === null) break
      after = page.nextAfter
    }
    expect(ids).toHaveLength(5)
    expect(new Set(ids).size).toBe(5)
    // By default a page holds up to 100 notes, but about 20 000 vertices: 30 polygons of 1000 corners are two pages.
    storeNotes(project.id, client.user.id, polygonsInRow(30, 18.43, -33.93, 1000))
    const first = await readJson<Page>(await list(client.headers, project.id))
    expect(first.annotations.length).toBeLessThan(30)
    expect(first.nextAfter).not.toBeNull()
    expect(first.annotations.every((n) => n.canEdit)).toBe(true)
  })

  test('a bounding box lists only the notes in it; a bad box, after or limit is a 400 with the words', async () => {
    const { project, client } = await projectWithNotes([
      point(18.42, -33.92),
      point(18.5, -33.92),
      {
        type: 'LineString',
        coordinates: [
          [18.41, -33.95],
          [18.43, -33.9],
        ],
      },
    ])
    const page = await readJson<Page>(
      await list(client.headers, project.id, '?bbox=18.415,-33.925,18.425,-33.915'),
    )
    expect(page.annotations.map((n) => n.geometry)).toEqual([
      { type: 'Point', coordinates: [18.42, -33.92] },
      expect.objectContaining({ type: 'LineString' }),
    ])
    for (const [query, message] of [
      ['?bbox=18.5,-33.9,18.4,-33.8', /west,south,east,north/],
      ['?bbox=a,b,c,d', /west,south,east,north/],
      ['?bbox=1,2,3', /west,south,east,north/],
      ['?after=-1', /after/],
      ['?limit=1000', /limit is 1 to 200/],
    ] as const) {
      const res = await list(client.headers, project.id, query)
      expect(res.status, query).toBe(400)
      expect((await readJson<{ error: string }>(res)).error).toMatch(message)
    }
  })
})

describe('caps', () => {
  test('a project holds at most 100 000 vertices in its notes: a new note or an edit past it is refused in words', async () => {
    // 99 polygons of 1000 corners (1001 stored positions each) = 99 099 vertices.
    const { project, client } = await projectWithNotes(polygonsInRow(99, 18.43, -33.93, 1000))
    const big = await create(client.headers, project.id, {
      type: 'Polygon',
      coordinates: [ring(18.42, -33.92, 1000)],
    })
    expect(big.status).toBe(409)
    expect((await readJson<{ error: string }>(big)).error).toBe(
      "A project's notes hold at most 100\u00a0000 corners in all; with this one they would have 100\u00a0100. Simplify its shape, or delete a note you no longer need.",
    )
    const small = await create(client.headers, project.id, point(18.42, -33.92))
    expect(small.status).toBe(201)
    const noteId = (await readJson<{ annotation: { id: number } }>(small)).annotation.id
    const grown = await callRoute(noteRoute.action, `/api/projects/${project.id}/annotations/${noteId}`, {
      method: 'PUT',
      headers: client.headers,
      json: {
        kind: 'polygon',
        title: 'Grown',
        geometry: { type: 'Polygon', coordinates: [ring(18.42, -33.92, 999)] },
      },
      params: { id: String(project.id), annotationId: String(noteId) },
    })
    expect(grown.status).toBe(409)
  })

  test('the 501st note is refused with the cap and what to do', async () => {
    const { project, client } = await projectWithNotes(pointsInRow(500, 1e-5))
    const res = await create(client.headers, project.id, point(18.42, -33.92))
    expect(res.status).toBe(409)
    expect((await readJson<{ error: string }>(res)).error).toBe(
      'This project has the most notes it can hold (500). Delete one you no longer need to add another.',
    )
  })
})

test('the Map view’s page carries one page of the list, without shapes, and a version for the map', async () => {
  const { project, client } = await projectWithNotes(polygonsInRow(120, 18.42, -33.92, 200))
  const load = async (query: string) => {
    const res = await callRoute(mapRoute.loader, `/projects/${project.id}/map${query}`, {
      headers: client.headers,
      params: { projectId: String(project.id) },
    })
    expect(res.status).toBe(200)
    return readJson<{
      notePage: {
        notes: Array<{ id: number; geometry?: unknown }>
        page: number
        pages: number
        total: number
      }
      notesVersion: string
      reportPolygons: unknown[]
    }>(res)
  }
  const first = await load('')
  expect(first.notePage).toMatchObject({ page: 1, pages: 3, total: 120 })
  expect(first.notePage.notes).toHaveLength(50)
  expect(first.notePage.notes.every((n) => n.geometry === undefined)).toBe(true)
  expect(first.reportPolygons).toHaveLength(120)
  const last = await load('?notes=9')
  expect(last.notePage).toMatchObject({ page: 3 })
  expect(last.notePage.notes).toHaveLength(20)
  storeNotes(project.id, client.user.id, [point(18.42, -33.92)])
  expect((await load('')).notesVersion).not.toBe(first.notesVersion)
})
