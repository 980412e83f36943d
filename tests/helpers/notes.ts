/** A project's notes through the API, as the Map view sends them: a new note, and a stockpile's body. */
import * as notesRoute from '#app/routes/api.projects.$id.annotations.ts'
import { callRoute } from '#tests/helpers/requests.ts'

/** POST …/annotations with `json` as the body. */
export function postNote(headers: Record<string, string>, projectId: number, json: unknown) {
  return callRoute(notesRoute.action, `/api/projects/${projectId}/annotations`, {
    headers,
    json,
    params: { id: String(projectId) },
  })
}

/** A stockpile note's body: a polygon on `ring` named `title`, with its material and density when given. */
export function stockpileNote(
  ring: Array<[number, number]>,
  title: string,
  fields: { material?: string; densityTPerM3?: number } = {},
) {
  return {
    kind: 'polygon',
    geometry: { type: 'Polygon', coordinates: [ring] },
    title,
    stockpileKind: 'stockpile',
    ...fields,
  }
}
