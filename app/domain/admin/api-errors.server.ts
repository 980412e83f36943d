/** Turns the admin services' known failures into api.md error responses. */
import { KmlError } from '#app/domain/airspace/kml-parse.server.ts'
import { apiError, domainErrorResponse } from '#app/domain/http/api.server.ts'
import { isDomainError } from '#app/domain/http/domain-error.ts'
import { InvalidPilotError } from '#app/domain/projects/admin-projects.server.ts'
import { EmailTakenError } from '#app/domain/users/users.server.ts'

import { NotFoundError } from './users.server.ts'

export function adminErrorResponse(error: unknown): Response {
  if (error instanceof Response || isDomainError(error)) return domainErrorResponse(error)
  if (error instanceof NotFoundError) return apiError(404, error.message)
  if (error instanceof EmailTakenError)
    return apiError(409, error.message, { fieldErrors: { email: [error.message] } })
  if (error instanceof InvalidPilotError)
    return apiError(400, error.message, { fieldErrors: { pilotId: [error.message] } })
  if (error instanceof KmlError)
    return apiError(error.status, error.message, { fieldErrors: { kmlFile: [error.message] } })
  throw error
}

/** Runs an admin API handler, answering known failures with the right 4xx. */
export async function withAdminErrors(run: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await run()
  } catch (error) {
    return adminErrorResponse(error)
  }
}
