import { parseWithZod } from '@conform-to/zod'
import { todayInSouthAfrica } from '#app/lib/format/dates.ts'
import { describe, expect, test } from 'vitest'

import {
  CreateProjectFormSchema,
  DEADLINE_IN_PAST_MESSAGE,
  DraftApiSchema,
  formatPlaceChoice,
  LOCATION_REQUIRED_MESSAGE,
} from './project-schemas.ts'

function form(values: Record<string, string>) {
  const data = new FormData()
  for (const [k, v] of Object.entries(values)) data.set(k, v)
  const submission = parseWithZod(data, { schema: CreateProjectFormSchema })
  return {
    status: submission.status,
    value: submission.status === 'success' ? submission.value : undefined,
    error: submission.status === 'success' ? undefined : submission.error,
  }
}

const valid = {
  name: 'Vineyard block B',
  projectType: 'agricultural-mapping',
  address: 'Stellenbosch, Western Cape, South Africa',
  latitude: '-33.9321',
  longitude: '18.8602',
}

describe('the Create Project form', () => {
  test('accepts the required fields and turns coordinates into numbers', () => {
    const submission = form(valid)
    expect(submission.status).toBe('success')
    expect(submission.value).toMatchObject({
      name: 'Vineyard block B',
      latitude: -33.9321,
      longitude: 18.8602,
    })
  })

  test('a missing location gives the fixed message on the address', () => {
    const submission = form({ name: 'x', projectType: 'other' })
    expect(submission.status).toBe('error')
    expect(submission.error?.address).toEqual([LOCATION_REQUIRED_MESSAGE])
  })

  test('an empty form reports every missing field at once', () => {
    const submission = form({})
    expect(submission.error?.name).toEqual(['Project name is required'])
    expect(submission.error?.projectType).toEqual(['Please select a project type'])
    expect(submission.error?.address).toEqual([LOCATION_REQUIRED_MESSAGE])
  })

  test('an address without coordinates is not enough', () => {
    const submission = form({ ...valid, latitude: '', longitude: '' })
    expect(submission.error?.address).toEqual([LOCATION_REQUIRED_MESSAGE])
  })

  test('name and a known project type are required', () => {
    const submission = form({ ...valid, name: '  ', projectType: 'space-survey' })
    expect(submission.error?.name).toEqual(['Project name is required'])
    expect(submission.error?.projectType).toEqual(['Please select a project type'])
  })

  test('a picked search result fills the location', () => {
    const choice = formatPlaceChoice({
      lat: -25.7479,
      lng: 28.2293,
      address: 'Pretoria, Gauteng, South Africa',
    })
    const submission = form({ name: 'Solar farm', projectType: 'infrastructure', placeChoice: choice })
    expect(submission.status).toBe('success')
    expect(submission.value).toMatchObject({
      address: 'Pretoria, Gauteng, South Africa',
      latitude: -25.7479,
      longitude: 28.2293,
    })
  })

  test('the deadline may be today but not in the past', () => {
    expect(form({ ...valid, deadline: todayInSouthAfrica() }).status).toBe('success')
    expect(form({ ...valid, deadline: '2020-01-01' }).error?.deadline).toEqual([DEADLINE_IN_PAST_MESSAGE])
    expect(form({ ...valid, deadline: '2030-02-30' }).error?.deadline).toEqual(['Please enter a valid date'])
  })

  test('a point outside South Africa is refused', () => {
    expect(form({ ...valid, latitude: '51.5', longitude: '-0.12' }).error?.latitude).toEqual([
      'The location must be in South Africa',
    ])
  })
})

describe('the draft API body', () => {
  test('reads coordinates {lat, lng} and location as the address', () => {
    const parsed = DraftApiSchema.parse({
      name: 'Quarry',
      projectType: 'mining-survey',
      location: 'Rustenburg, North West',
      coordinates: { lat: -25.66, lng: 27.24 },
      clientId: 999,
      status: 'pending',
    })
    expect(parsed).toEqual({
      name: 'Quarry',
      projectType: 'mining-survey',
      address: 'Rustenburg, North West',
      latitude: -25.66,
      longitude: 27.24,
      deadline: undefined,
      description: undefined,
      requirements: undefined,
    })
  })

  test('no coordinates → the fixed message', () => {
    const result = DraftApiSchema.safeParse({
      name: 'Quarry',
      projectType: 'mining-survey',
      address: 'Somewhere',
    })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe(LOCATION_REQUIRED_MESSAGE)
  })
})
