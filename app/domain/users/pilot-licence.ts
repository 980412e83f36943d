/** Pilot licence display rule: SA-RPAS + the id padded to 6 digits. */
export function pilotLicenceDisplay(pilotId: number) {
  return `SA-RPAS${String(pilotId).padStart(6, '0')}`
}

export const PILOT_CERTIFICATION_LEVEL = 'Commercial Drone Pilot'
