/**
 * GET /api/projects/{id}/flight-plan/{kml|geojson}: the survey areas as a file, for the
 * project's client, its assigned pilot and admins (404 for anyone else).
 */
import { flightPlanView } from '#app/domain/flight-plan/flight-plan.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import {
  exportFileName,
  FLIGHT_PLAN_FILE_FORMATS,
  flightPlanGeoJson,
  flightPlanKml,
  isFlightPlanFileFormat,
} from '#app/domain/projects/flight-plan-export.ts'
import { surveyPlanOf } from '#app/domain/survey/project-plan.server.ts'
import { flightPatternText } from '#app/domain/survey/project-plan.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { apiFail } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  params: { projectId: 'project id' },
  GET: ({ user, ids, params: { format } }) => {
    if (!isFlightPlanFileFormat(format)) apiFail(404, 'Unknown export format')
    const project = requireVisibleProject(user, ids.projectId)
    const plan = flightPlanView(project.flightPlan)
    if (!plan || !plan.areas.length) apiFail(404, 'This project has no flight plan yet')
    const survey = surveyPlanOf(project)
    const pattern = survey ? flightPatternText(survey.settings) : null
    const body =
      format === 'kml'
        ? flightPlanKml(project.name, plan.areas, pattern)
        : JSON.stringify(flightPlanGeoJson(project.name, plan.areas, pattern), null, 2)
    const fileName = exportFileName(project.name, format)
    return new Response(body, {
      headers: {
        'Content-Type': `${FLIGHT_PLAN_FILE_FORMATS[format].contentType}; charset=utf-8`,
        'Content-Disposition': `attachment; filename="${fileName}"`,
        'Cache-Control': 'private, no-cache',
      },
    })
  },
})
