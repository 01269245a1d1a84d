import { expect } from 'chai';
import { ApiError, type ApiErrorCode } from '../../packages/framework/src/wire/api-error.js';

/** Awaits `promise`, expecting it to reject with an ApiError of `code`; returns that error. */
export async function expectApiError(promise: Promise<unknown>, code: ApiErrorCode): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(ApiError);
    expect((error as ApiError).code, (error as ApiError).message).to.equal(code);
    return error as ApiError;
  }
  expect.fail(`expected ApiError ${code}`);
}

/** Runs `run`, expecting it to throw an ApiError of `code` at once; returns that error. */
export function expectApiErrorThrown(run: () => unknown, code: ApiErrorCode): ApiError {
  try {
    run();
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(ApiError);
    expect((error as ApiError).code, (error as ApiError).message).to.equal(code);
    return error as ApiError;
  }
  expect.fail(`expected ApiError ${code}`);
}
