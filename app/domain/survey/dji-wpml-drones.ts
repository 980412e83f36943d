/**
 * Which drones the DJI WPML `.kmz` is written for, and what it declares for each.
 * DJI Pilot 2 loads a WPML mission only for the aircraft and camera it declares, and only
 * the enterprise drones DJI lists for WPML fly it: a Phantom 4 RTK (DJI GS RTK), a Phantom 4
 * Pro or a Mini 4 Pro (DJI Fly) cannot, so they get no KMZ rather than one that names
 * another drone.
 *
 * Values (checked against DJI's published lists):
 * - aircraft `droneEnumValue`/`droneSubEnumValue`: DJI Cloud API "Product support" —
 *   Mavic 3 Enterprise (M3E camera) 77/0, Matrice 350 RTK 89/0, Matrice 300 RTK 60/0;
 * - camera `payloadEnumValue`: the same page (Mavic 3E camera 66) and the Payload SDK's
 *   `E_DjiCameraType` (Zenmuse P1 50); the main gimbal is `payloadPositionIndex` 0.
 */
export interface DjiWpmlDrone {
  droneEnum: number
  droneSubEnum: number
  payloadEnum: number
  /** focusMode, meteringMode and dewarpingEnable in payloadParam are M300/M350 (P1) settings. */
  matrice: boolean
}

const M3E: DjiWpmlDrone = { droneEnum: 77, droneSubEnum: 0, payloadEnum: 66, matrice: false }
const P1 = 50

/** The WPML declaration for a drone profile (matched by its name), or null when DJI Pilot 2 cannot fly it. */
export function djiWpmlDrone(droneName: string): DjiWpmlDrone | null {
  const name = droneName.toLowerCase()
  if (/mavic 3 enterprise|\bm3e\b/.test(name)) return M3E
  const withP1 = /\bp1\b/.test(name)
  if (withP1 && /matrice 350/.test(name))
    return { droneEnum: 89, droneSubEnum: 0, payloadEnum: P1, matrice: true }
  if (withP1 && /matrice 300/.test(name))
    return { droneEnum: 60, droneSubEnum: 0, payloadEnum: P1, matrice: true }
  return null
}

export function noDjiWpmlMessage(droneName: string) {
  return `DJI Pilot 2 flies this KMZ only on a Mavic 3 Enterprise or a Matrice 300/350 RTK with a Zenmuse P1: use the Litchi CSV or the QGroundControl plan for the ${droneName}, or choose one of those drones on the mission page`
}
