import type { RestRoute } from '../../rest-types';

export const chatbotRest: RestRoute[] = [
  { method: 'POST', path: '/api/chatbot', procedure: 'chatbot.ask', summary: 'Ask the dispatch assistant' },
];
