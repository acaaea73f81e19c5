// Paging iterators: `for await (const run of client.runs(taskId)) ...` walks every page of a
// list, asking for the next page by the token the last one returned.
//
// Both APIs page by keyset: a token is the position of the last item, so items added or moved
// while walking cause no gap and no repeat. `pageToken` is the token of the next page not yet
// read: save it to resume a walk later with `{ pageToken }`. A token the API refuses (400 naming
// `pageToken`) surfaces as PageTokenError; the iterator never restarts silently from page one.

export interface Page<T> {
  items: T[];
  nextPageToken?: string | undefined;
}

export class PageIterator<T> implements AsyncIterable<T> {
  readonly #fetchPage: (pageToken: string | undefined) => Promise<Page<T>>;
  #pageToken: string | undefined;
  #done = false;

  constructor(fetchPage: (pageToken: string | undefined) => Promise<Page<T>>, pageToken?: string) {
    this.#fetchPage = fetchPage;
    this.#pageToken = pageToken;
  }

  /** The token of the next page not yet read; undefined before the first page and at the end. */
  get pageToken(): string | undefined {
    return this.#pageToken;
  }

  /** Whole pages, for callers that print or batch by page. */
  async *pages(): AsyncGenerator<Page<T>> {
    while (!this.#done) {
      const page = await this.#fetchPage(this.#pageToken);
      this.#pageToken = page.nextPageToken;
      if (!page.nextPageToken) this.#done = true;
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item, read to the end (mind the size of the list). */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}
