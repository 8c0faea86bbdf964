// The API key form in the page's header: the key goes to sessionStorage (api.ts), and the view is drawn again
// with it.
import { apiKey, setApiKey } from '../api.js';
import { h } from '../dom.js';

export function keyForm(onChange: () => void): HTMLElement {
  const input = h('input', {
    id: 'api-key',
    type: 'password',
    autocomplete: 'off',
    value: apiKey(),
    placeholder: 'open mode: none',
  });
  return h(
    'form',
    {
      class: 'key',
      onsubmit: (event) => {
        event.preventDefault();
        setApiKey(input.value.trim());
        onChange();
      },
    },
    h('label', { for: 'api-key', class: 'key-label' }, 'API key'),
    input,
    h('button', { type: 'submit' }, 'Use'),
  );
}
