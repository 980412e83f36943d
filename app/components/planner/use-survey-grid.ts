/**
 * The live survey grid: the shared engine runs in the browser with the settings
 * Generate Quote will store (the project type's GSD, the default drone), so the grid,
 * photo count and flight time on screen are the ones the quote uses.
 */
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import type { SurveyPlanResult } from '#app/domain/survey/plan.ts'
import { planWithSettings, type SurveySettings } from '#app/domain/survey/project-plan.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { useMemo } from 'react'

export type SurveyGrid = { plan: SurveyPlanResult; error: null } | { plan: null; error: string | null }

export function useSurveyGrid(
  areas: SurveyArea[],
  settings: SurveySettings,
  airspaceZones: string[],
): SurveyGrid {
  return useMemo(() => {
    if (!areas.length) return { plan: null, error: null }
    try {
      const plan = planWithSettings(areas, settings, airspaceZones)
      return { plan, error: null }
    } catch (error) {
      if (isDomainError(error)) return { plan: null, error: error.message }
      throw error
    }
  }, [areas, settings, airspaceZones])
}
