/** The drone of an admin drone dialog's URL (the create/edit actions are `submitAdminForm`). */
import { recordFromParam } from '#app/domain/admin/dialog-routes.server.ts'

import { findDroneProfile } from './drone-profiles.server.ts'

/** The drone of a dialog URL; a 404 response when there is none. */
export function droneOf(param: string | undefined) {
  return recordFromParam(param, findDroneProfile, 'Drone profile not found')
}
