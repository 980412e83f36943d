import { MAX_SCREENSHOT_CHARS } from '#app/domain/flight-plan/flight-plan.ts'
import { formatPlaceChoice, LOCATION_REQUIRED_MESSAGE } from '#app/domain/projects/project-schemas.ts'
import { quoteProjectAreas } from '#app/domain/projects/quoting.server.ts'
import { deliverableFor, readSurveyPlan } from '#app/domain/survey/project-plan.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as dashboardRoute from '#app/routes/dashboard.tsx'
import * as plannerRoute from '#app/routes/flight-planner.tsx'
import { hubs, projects } from '#db/schema.ts'
import { signedInUser } from '#tests/factories.ts'
import { callRoute, readJson, toastOf } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { draftFor, insertDemoHubs, STELLENBOSCH_AREAS } from './planner-fixtures.ts'

insertDemoHubs()

const cookieFor = (token: string) => ({ 'x-session-id': token })

/** The toast a response flashes (what the next page shows), or null. */

function coordinatesText() {
  return STELLENBOSCH_AREAS.map((a) =>
    a.coordinates.map((p) => `${p.latitude}, ${p.longitude}`).join('\n'),
  ).join('\n\n')
}

async function loaderData(path: string, headers: Record<string, string>) {
  const res = await callRoute(plannerRoute.loader, path, { headers })
  return { res, data: res.status === 200 ? await readJson<Record<string, unknown>>(res) : null }
}

describe('/flight-planner loader', () => {
  test('gives the owner the project, hubs and settings', async () => {
    const { user, token } = await signedInUser('client')
    const draft = draftFor(user.id)
    const { res, data } = await loaderData(`/flight-planner?projectId=${draft.id}`, cookieFor(token))
    expect(res.status).toBe(200)
    expect(data).toMatchObject({
      handOff: false,
      project: { id: draft.id, name: 'Vineyard survey', canPlan: true },
      quote: null,
      tab: 'plan',
    })
    expect((data!.hubs as unknown[]).length).toBe(3)
  })

  test('someone else’s, a missing or a malformed id goes back to /dashboard', async () => {
    const alice = await signedInUser('client')
    const bob = await signedInUser('client')
    const draft = draftFor(alice.user.id)
    for (const query of [`projectId=${draft.id}`, 'projectId=999999', 'projectId=abc']) {
      const { res } = await loaderData(`/flight-planner?${query}`, cookieFor(bob.token))
      expect(res.status).toBe(302)
      expect(res.headers.get('Location')).toBe('/dashboard')
    }
  })

  test('unreadable stored flight plan data goes back to /dashboard', async () => {
    const { user, token } = await signedInUser('client')
    const draft = draftFor(user.id)
    getDb().update(projects).set({ flightPlan: '{not json' }).where(eq(projects.id, draft.id)).run()
    const { res } = await loaderData(`/flight-planner?projectId=${draft.id}`, cookieFor(token))
    expect(res.headers.get('Location')).toBe('/dashboard')
  })

  test('without an id the page hands off to the browser (sessionStorage)', async () => {
    const { token } = await signedInUser('client')
    const { data } = await loaderData('/flight-planner', cookieFor(token))
    expect(data).toEqual({ handOff: true, payment: false })
  })

  test("says 'No flight hubs available' when no hub is active (and nothing otherwise)", async () => {
    const { user, token } = await signedInUser('client')
    const draft = draftFor(user.id)
    expect(
      (await loaderData(`/flight-planner?projectId=${draft.id}`, cookieFor(token))).data!.hubsError,
    ).toBeNull()
    const db = getDb()
    db.update(hubs).set({ isActive: false }).run()
    try {
      const { data } = await loaderData(`/flight-planner?projectId=${draft.id}`, cookieFor(token))
      expect(data).toMatchObject({ hubs: [], hubsError: 'No flight hubs available' })
    } finally {
      db.update(hubs).set({ isActive: true }).run()
    }
  })

  test('signed out → login; pilots and admins → their dashboard', async () => {
    const signedOut = await callRoute(plannerRoute.loader, '/flight-planner?projectId=1')
    expect(signedOut.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
    const pilot = await signedInUser('pilot')
    expect(
      (await loaderData('/flight-planner?projectId=1', cookieFor(pilot.token))).res.headers.get('Location'),
    ).toBe('/dashboard')
  })
})

describe('/flight-planner action (Generate Quote)', () => {
  test('pasted coordinates (multipart, no JavaScript) store the server quote and open the quote view', async () => {
    const { user, token } = await signedInUser('client')
    const draft = draftFor(user.id)
    const form = new FormData()
    form.set('intent', 'generate-quote')
    form.set('coordinates', coordinatesText())
    form.set('planFile', new File([], ''))
    const res = await callRoute(plannerRoute.action, `/flight-planner?projectId=${draft.id}`, {
      form,
      headers: cookieFor(token),
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe(`/flight-planner?projectId=${draft.id}&view=quote`)
    const row = getDb().select().from(projects).where(eq(projects.id, draft.id)).get()!
    expect(row.status).toBe('pending')
    expect(row.quoteAmount).toBe(quoteProjectAreas(STELLENBOSCH_AREAS).quote.totalInCents)

    const { data } = await loaderData(`/flight-planner?projectId=${draft.id}&view=quote`, cookieFor(token))
    // The flight time is the stored survey mission's, made for the project type's resolution.
    const survey = readSurveyPlan(row.surveyPlan)!
    expect(survey.settings).toMatchObject({
      gsdCm: deliverableFor(draft.projectType).gsdCm,
      frontOverlap: 75,
      sideOverlap: 70,
    })
    expect(survey.summary.photoCount).toBeGreaterThan(0)
    expect(data!.quote).toMatchObject({
      totalInCents: row.quoteAmount,
      surveyAreas: 2,
      flightTimeMinutes: Math.ceil(survey.summary.flightTimeS / 60),
      survey: { photoCount: survey.summary.photoCount, batteries: survey.summary.batteries },
    })
    expect(data!.hasScreenshot).toBe(false)
  })

  test('a KML file upload is parsed on the server', async () => {
    const { user, token } = await signedInUser('client')
    const draft = draftFor(user.id)
    const ring = STELLENBOSCH_AREAS[0]!.coordinates.map((p) => `${p.longitude},${p.latitude},0`).join(' ')
    const kml = `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>`
    const form = new FormData()
    form.set('intent', 'generate-quote')
    form.set('coordinates', '')
    form.set('planFile', new File([kml], 'site.kml', { type: 'application/vnd.google-earth.kml+xml' }))
    const res = await callRoute(plannerRoute.action, `/flight-planner?projectId=${draft.id}`, {
      form,
      headers: cookieFor(token),
    })
    expect(res.status).toBe(302)
    const row = getDb().select().from(projects).where(eq(projects.id, draft.id)).get()!
    expect(row.quoteAmount).toBe(quoteProjectAreas([STELLENBOSCH_AREAS[0]!]).quote.totalInCents)
  })

  test('an oversized file is 413 and a file of another type is 415', async () => {
    const { user, token } = await signedInUser('client')
    const draft = draftFor(user.id)
    const big = new FormData()
    big.set('intent', 'generate-quote')
    big.set('planFile', new File(['x'.repeat(1024 * 1024 + 10)], 'big.kml'))
    const tooBig = await callRoute(plannerRoute.action, `/flight-planner?projectId=${draft.id}`, {
      form: big,
      headers: cookieFor(token),
    })
    expect(tooBig.status).toBe(413)
    const pdf = new FormData()
    pdf.set('intent', 'generate-quote')
    pdf.set('planFile', new File(['%PDF-1.4'], 'plan.pdf'))
    const wrongType = await callRoute(plannerRoute.action, `/flight-planner?projectId=${draft.id}`, {
      form: pdf,
      headers: cookieFor(token),
    })
    expect(wrongType.status).toBe(415)
  })

  test('each multipart field has its own size limit: a screenshot near its 1 MB ceiling does not trip the 1 MB plan-file limit', async () => {
    const { user, token } = await signedInUser('client')
    const draft = draftFor(user.id)
    const ring = STELLENBOSCH_AREAS[0]!.coordinates.map((p) => `${p.longitude},${p.latitude},0`).join(' ')
    const kml = `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>`
    // A PNG data URL of about the given size (a PNG signature in base64, then filler; length a multiple of 4).
    const screenshotOf = (chars: number) =>
      `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${'A'.repeat(chars - (chars % 4) - 24)}`
    const post = (screenshot: string, planFile = new File([kml], 'site.kml')) => {
      const form = new FormData()
      form.set('intent', 'generate-quote')
      form.set('planFile', planFile)
      form.set('screenshot', screenshot)
      return callRoute(plannerRoute.action, `/flight-planner?projectId=${draft.id}`, {
        form,
        headers: cookieFor(token),
      })
    }

    const tooBigScreenshot = await post(screenshotOf(MAX_SCREENSHOT_CHARS + 100))
    expect(tooBigScreenshot.status).toBe(413)
    expect(await readJson(tooBigScreenshot)).toMatchObject({
      error: 'The map screenshot is too large (at most 1 MB).',
      field: 'screenshot',
    })

    const tooBigFile = await post(
      screenshotOf(1_300_000),
      new File(['x'.repeat(1024 * 1024 + 10)], 'big.kml'),
    )
    expect(tooBigFile.status).toBe(413)
    expect(await readJson(tooBigFile)).toMatchObject({
      error: 'The file is too large (at most 1 MB).',
      field: 'planFile',
    })
    expect(getDb().select().from(projects).where(eq(projects.id, draft.id)).get()!.status).toBe('draft')

    const ok = await post(screenshotOf(1_300_000))
    expect(ok.status).toBe(302)
    const row = getDb().select().from(projects).where(eq(projects.id, draft.id)).get()!
    expect(row.status).toBe('pending')
    expect(row.quoteAmount).toBe(quoteProjectAreas([STELLENBOSCH_AREAS[0]!]).quote.totalInCents)
    const { data } = await loaderData(`/flight-planner?projectId=${draft.id}&view=quote`, cookieFor(token))
    expect(data!.hasScreenshot).toBe(true)
  })

  test("a draft that gets its quote flashes 'Project created successfully!…'; a re-quote does not", async () => {
    const { user, token } = await signedInUser('client')
    const draft = draftFor(user.id)
    const post = () =>
      callRoute(plannerRoute.action, `/flight-planner?projectId=${draft.id}`, {
        form: { intent: 'generate-quote', coordinates: coordinatesText() },
        headers: cookieFor(token),
      })
    const first = await post()
    expect(first.status).toBe(302)
    expect(await toastOf(first)).toMatchObject({
      title:
        'Project created successfully! Pay the quote to book your flight; an admin assigns a pilot once your payment is confirmed.',
      type: 'success',
    })
    const again = await post()
    expect(again.status).toBe(302)
    expect(await toastOf(again)).toBeNull()
  })

  test("pricing that fails flashes 'Error' / 'Failed to create project: {message}' (no hubs configured)", async () => {
    const { user, token } = await signedInUser('client')
    const draft = draftFor(user.id)
    const db = getDb()
    db.update(hubs).set({ isActive: false }).run()
    try {
      const res = await callRoute(plannerRoute.action, `/flight-planner?projectId=${draft.id}`, {
        form: { intent: 'generate-quote', coordinates: coordinatesText() },
        headers: cookieFor(token),
      })
      expect(res.status).toBe(409)
      // In the answer (shown as a toast with JavaScript, as an alert without), not a flash cookie.
      expect(await readJson(res)).toMatchObject({
        error: 'No hubs configured',
        toast: { title: 'Error', description: 'Failed to create project: No hubs configured' },
      })
      expect(await toastOf(res)).toBeNull()
      expect(db.select().from(projects).where(eq(projects.id, draft.id)).get()!.status).toBe('draft')
    } finally {
      db.update(hubs).set({ isActive: true }).run()
    }
  })

  test('nothing entered, a bad line and bad geometry are 400 with a reason; the draft stays a draft', async () => {
    const { user, token } = await signedInUser('client')
    const draft = draftFor(user.id)
    const cases: Array<[Record<string, string>, string]> = [
      [{ intent: 'generate-quote', coordinates: '' }, 'Please draw at least one area before saving.'],
      [
        { intent: 'generate-quote', coordinates: '-33.9, 18.8\nnorth-ish' },
        'Line 2 is not a ‘latitude, longitude’ pair: north-ish',
      ],
      [
        { intent: 'generate-quote', coordinates: '-33.9, 18.8\n-33.91, 18.81' },
        'Each survey area needs at least 3 points',
      ],
      [
        {
          intent: 'generate-quote',
          areas:
            '[{"coordinates":[{"latitude":51.5,"longitude":-0.1},{"latitude":51.6,"longitude":-0.1},{"latitude":51.6,"longitude":0}]}]',
        },
        'Survey areas must be in South Africa',
      ],
    ]
    for (const [form, message] of cases) {
      const res = await callRoute(plannerRoute.action, `/flight-planner?projectId=${draft.id}`, {
        form,
        headers: cookieFor(token),
      })
      expect(res.status).toBe(400)
      expect((await readJson<{ error: string }>(res)).error).toBe(message)
    }
    expect(getDb().select().from(projects).where(eq(projects.id, draft.id)).get()!.status).toBe('draft')
  })

  test('another client cannot quote someone else’s project', async () => {
    const alice = await signedInUser('client')
    const bob = await signedInUser('client')
    const draft = draftFor(alice.user.id)
    const res = await callRoute(plannerRoute.action, `/flight-planner?projectId=${draft.id}`, {
      form: { intent: 'generate-quote', coordinates: coordinatesText() },
      headers: cookieFor(bob.token),
    })
    expect(res.headers.get('Location')).toBe('/dashboard')
    expect(getDb().select().from(projects).where(eq(projects.id, draft.id)).get()!.status).toBe('draft')
  })
})

describe('dashboard project intents', () => {
  test('create-project saves a draft and opens the planner', async () => {
    const { user, token } = await signedInUser('client')
    const res = await callRoute(dashboardRoute.action, '/dashboard?tab=create', {
      form: {
        intent: 'create-project',
        name: 'Farm dam',
        projectType: 'environmental',
        placeChoice: formatPlaceChoice({
          lat: -33.9346,
          lng: 18.8668,
          address: 'Stellenbosch, Western Cape, South Africa',
        }),
      },
      headers: cookieFor(token),
    })
    expect(res.status).toBe(302)
    const row = getDb().select().from(projects).where(eq(projects.clientId, user.id)).get()!
    expect(res.headers.get('Location')).toBe(`/flight-planner?projectId=${row.id}`)
    expect(row).toMatchObject({
      status: 'draft',
      location: 'Stellenbosch, Western Cape, South Africa',
      latitude: -33.9346,
    })
  })

  test('create-project without a location answers with the fixed message', async () => {
    const { token } = await signedInUser('client')
    const res = await callRoute(dashboardRoute.action, '/dashboard?tab=create', {
      form: { intent: 'create-project', name: 'Farm dam', projectType: 'environmental' },
      headers: cookieFor(token),
    })
    expect(res.status).toBe(400)
    const body = await readJson<{ result: { error: Record<string, string[]> } }>(res)
    expect(body.result.error.address).toEqual([LOCATION_REQUIRED_MESSAGE])
  })

  test('delete-draft removes only the owner’s draft', async () => {
    const alice = await signedInUser('client')
    const bob = await signedInUser('client')
    const draft = draftFor(alice.user.id)
    const theirs = await callRoute(dashboardRoute.action, '/dashboard?tab=projects', {
      form: { intent: 'delete-draft', projectId: String(draft.id) },
      headers: cookieFor(bob.token),
    })
    expect(theirs.headers.get('Location')).toBe('/dashboard?tab=projects')
    expect(getDb().select().from(projects).where(eq(projects.id, draft.id)).get()).toBeDefined()
    await callRoute(dashboardRoute.action, '/dashboard?tab=projects', {
      form: { intent: 'delete-draft', projectId: String(draft.id) },
      headers: cookieFor(alice.token),
    })
    expect(getDb().select().from(projects).where(eq(projects.id, draft.id)).get()).toBeUndefined()
  })

  test('the dashboard loader lists the projects and runs the no-JS place search', async () => {
    const { user, token } = await signedInUser('client')
    draftFor(user.id)
    const res = await callRoute(dashboardRoute.loader, '/dashboard?tab=create&q=Durban', {
      headers: cookieFor(token),
    })
    const data = await readJson<{
      projects: Array<{ status: string }>
      placeSearch: { results: Array<{ address: string }> }
    }>(res)
    expect(data.projects).toHaveLength(1)
    expect(data.placeSearch.results[0]!.address).toMatch(/^Durban/)
  })
})
