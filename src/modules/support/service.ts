import type { SupportDeps } from './deps.js';
import { adminClose, adminListThreads, adminReply, adminThreadMessages, adminThreadReports, type ThreadQuery } from './admin-threads.js';
import { deleteCannedReply, listCannedReplies, saveCannedReply } from './canned.js';
import { getOrCreateThread, listMyThreadMessages, send } from './my-threads.js';

export { messageView, threadView } from './threads.js';

export type SupportService = ReturnType<typeof createSupportService>;

/** A customer's support thread with operators, the operators' inbox of threads, and their saved replies. */
export function createSupportService(deps: SupportDeps) {
  return {
    getOrCreateThread: (userId: string) => getOrCreateThread(deps, userId),
    listMyThreadMessages: (userId: string, threadId: string, limit: number, offset: number) =>
      listMyThreadMessages(deps, userId, threadId, limit, offset),
    send: (userId: string, threadId: string, body: string) => send(deps, userId, threadId, body),
    adminListThreads: (opts: ThreadQuery) => adminListThreads(deps, opts),
    adminThreadMessages: (threadId: string, limit: number, offset: number) => adminThreadMessages(deps, threadId, limit, offset),
    adminReply: (operatorId: string, threadId: string, body: string) => adminReply(deps, operatorId, threadId, body),
    adminClose: (operatorId: string, threadId: string) => adminClose(deps, operatorId, threadId),
    /** The reports of the thread's customer whose reference the thread names (issue 44). */
    adminThreadReports: (threadId: string) => adminThreadReports(deps, threadId),
    adminListCannedReplies: () => listCannedReplies(deps),
    adminSaveCannedReply: (operatorId: string, input: { id?: string; title: string; body: string }) =>
      saveCannedReply(deps, operatorId, input),
    adminDeleteCannedReply: (id: string) => deleteCannedReply(deps, id),
  };
}
