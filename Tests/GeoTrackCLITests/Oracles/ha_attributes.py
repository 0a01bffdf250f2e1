#!/usr/bin/env python3
"""What Home Assistant's MQTT device_tracker makes of one message on its json_attributes_topic.

Usage: ha_attributes.py TEMPLATE PAYLOAD

Home Assistant cannot run here; this restates, on Jinja2 (the template engine Home Assistant
renders with, in its sandboxed environment), the steps its MQTT integration takes with such a
message: render json_attributes_template with `value` and `value_json`, a template error being
logged and the message dropped; read the result as a JSON object, anything else being logged
and dropped; and, in the device tracker, take `latitude` and `longitude` as the position when
either is present, a missing or non-numeric one resetting the position to unknown.

Prints one JSON object: {"outcome": "error", "reason": …} for a message Home Assistant logs as an
error and drops, {"outcome": "position", "latitude": …, "longitude": …} for one that sets the
position (both null when it resets it), or {"outcome": "attributes"} for one that leaves the
position as it was.
"""

import json
import sys

from jinja2 import TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment


def main() -> None:
    template, payload = sys.argv[1], sys.argv[2]
    environment = ImmutableSandboxedEnvironment()
    try:
        value_json = json.loads(payload)
    except ValueError:
        value_json = None
    variables = {"value": payload}
    if value_json is not None:
        variables["value_json"] = value_json
    try:
        rendered = environment.from_string(template).render(**variables)
    except (TemplateError, TypeError, ValueError) as error:
        print(json.dumps({"outcome": "error", "reason": f"rendering: {error}"}))
        return
    try:
        attributes = json.loads(rendered)
    except ValueError:
        print(json.dumps({"outcome": "error", "reason": f"erroneous JSON: {rendered}"}))
        return
    if not isinstance(attributes, dict):
        print(json.dumps({"outcome": "error", "reason": f"not a dictionary: {rendered}"}))
        return
    if "latitude" in attributes or "longitude" in attributes:
        latitude, longitude = attributes.get("latitude"), attributes.get("longitude")
        number = (int, float)
        if isinstance(latitude, number) and isinstance(longitude, number) \
                and not isinstance(latitude, bool) and not isinstance(longitude, bool):
            print(json.dumps({"outcome": "position", "latitude": latitude, "longitude": longitude}))
        else:
            print(json.dumps({"outcome": "position", "latitude": None, "longitude": None}))
        return
    print(json.dumps({"outcome": "attributes"}))


if __name__ == "__main__":
    main()
