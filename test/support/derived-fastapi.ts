import { derivedGateway, v1FromV2 } from './derived-gateway.ts';

/** The folder of the FastAPI-named upstream (`upstream.py`), its v2 document and v2's change file. */
const derivedFastapiFixture = new URL('../fixtures/derived-fastapi/', import.meta.url).pathname;

/**
 * The FastAPI-named upstream and `versionary gateway` (as a process) serving v1 derived from its v2,
 * for the enclosing `describe` (see `derivedGateway`).
 */
export function derivedFastapiGateway(): {
  gateway: { readonly base: string; output(): string };
  upstream: { readonly url: string };
} {
  const started = derivedGateway({
    fixture: derivedFastapiFixture,
    files: ['openapi-v2.json', 'changes-v2.json'],
    versions: v1FromV2(),
  });
  return {
    gateway: started,
    upstream: {
      get url() {
        return started.upstream;
      },
    },
  };
}
