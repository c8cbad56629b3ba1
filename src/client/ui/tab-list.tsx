import { useRef, type KeyboardEvent } from 'react';

export interface TabListProps<Name extends string> {
  /** Names the tabs and panels: tab `${idPrefix}-tab-${name}` controls panel `${idPrefix}-panel-${name}`. */
  idPrefix: string;
  /** The accessible name of the whole list. */
  label: string;
  tabs: readonly { name: Name; label: string }[];
  selected: Name;
  onSelect(name: Name): void;
}

const tabId = (idPrefix: string, name: string) => `${idPrefix}-tab-${name}`;
const panelId = (idPrefix: string, name: string) => `${idPrefix}-panel-${name}`;

/**
 * Tabs as the WAI-ARIA tabs pattern describes them (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/):
 * the list is one stop for Tab (the selected tab; the others have tabindex -1), the arrow keys move
 * to the previous or next tab, wrapping, Home and End to the first and last, and the tab that gets
 * focus is selected at once, since every panel shows without waiting.
 */
export function TabList<Name extends string>({ idPrefix, label, tabs, selected, onSelect }: TabListProps<Name>) {
  const buttons = useRef(new Map<Name, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = tabs.findIndex((tab) => buttons.current.get(tab.name) === event.target);
    if (current < 0) return;
    const last = tabs.length - 1;
    const target = { ArrowRight: current === last ? 0 : current + 1, ArrowLeft: current === 0 ? last : current - 1, Home: 0, End: last }[event.key];
    if (target === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const name = tabs[target]!.name;
    buttons.current.get(name)?.focus();
    if (name !== selected) onSelect(name);
  };

  return (
    <div className="tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab.name}
          ref={(button) => {
            if (button) buttons.current.set(tab.name, button);
            else buttons.current.delete(tab.name);
          }}
          type="button"
          role="tab"
          id={tabId(idPrefix, tab.name)}
          aria-selected={tab.name === selected}
          aria-controls={panelId(idPrefix, tab.name)}
          tabIndex={tab.name === selected ? 0 : -1}
          className="tabs__tab"
          onClick={() => {
            if (tab.name !== selected) onSelect(tab.name);
          }}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/** The attributes of the panel that shows the selected tab's content. */
export const tabPanelProps = (idPrefix: string, name: string) =>
  ({ role: 'tabpanel', id: panelId(idPrefix, name), 'aria-labelledby': tabId(idPrefix, name) }) as const;
