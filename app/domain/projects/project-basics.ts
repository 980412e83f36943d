import type { Project } from '#db/schema.ts'

/**
 * What every role's view of a project starts with (the client's card, the pilot's job):
 * the project as the client described it, what the plan found (area, airspace zone) and
 * where it stands (paid or not). Each view adds its own fields (money for the client,
 * contact and media for the pilot) on top.
 */
export function projectBasics(project: Project) {
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    projectType: project.projectType,
    location: project.location,
    latitude: project.latitude,
    longitude: project.longitude,
    deadline: project.deadline,
    requirements: project.requirements,
    areaSqm: project.areaSqm,
    airspaceZone: project.airspaceZone,
    status: project.status,
    statusMessage: project.statusMessage,
    isPaid: project.isPaid,
    hasFlightPlanData: Boolean(project.flightPlan),
  }
}
