"""The Scrapy peer for bench/crawl.ts: a CrawlSpider over the test web's origins.

Run as `python3 -m scrapy runspider scrapy_spider.py -a origins=URL,URL -a seeds=URL -O items.jsonl`
(bench/crawl.ts adds `-s CONCURRENT_REQUESTS=… -s CLOSESPIDER_PAGECOUNT=…`). robots.txt obeyed (RobotsTxtMiddleware, Protego), 64 requests in flight per crawl and per
host, no delay. allowed_domains holds bare IPs: OffsiteMiddleware compares them with the request's hostname
and ignores entries that carry a port, so the port is pinned by the link extractor's `allow` pattern instead.
At spider_closed it prints one line `RESULT {json}` with the crawl window and getrusage figures.
"""

import json
import re
import resource
import time
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class TestWebSpider(CrawlSpider):
    name = "testweb"
    custom_settings = {
        "ROBOTSTXT_OBEY": True,
        "CONCURRENT_REQUESTS": 64,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 64,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "RETRY_TIMES": 2,
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    }

    def __init__(self, origins="", seeds="", *args, **kwargs):
        origin_list = [origin for origin in origins.split(",") if origin]
        self.allowed_domains = sorted({urlsplit(origin).hostname for origin in origin_list})
        self.start_urls = [seed for seed in seeds.split(",") if seed]
        pattern = "^(" + "|".join(re.escape(origin) for origin in origin_list) + ")/"
        self.rules = (Rule(LinkExtractor(allow=pattern), callback="parse_page", follow=True),)
        self.pages = 0
        self.started = None
        self.cpu_before = None
        super().__init__(*args, **kwargs)

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.opened, signal=signals.spider_opened)
        crawler.signals.connect(spider.closed_report, signal=signals.spider_closed)
        return spider

    @staticmethod
    def cpu_secs():
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    def opened(self, spider):
        self.started = time.perf_counter()
        self.cpu_before = self.cpu_secs()

    def closed_report(self, spider, reason):
        report = {
            "crawlMs": (time.perf_counter() - self.started) * 1000,
            "cpuSecs": self.cpu_secs() - self.cpu_before,
            "peakRssMiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "serverCpuSecs": {},
            "notes": f"items {self.pages}, close reason {reason}",
        }
        print("RESULT " + json.dumps(report), flush=True)

    def parse_start_url(self, response):
        return self.parse_page(response)

    def parse_page(self, response):
        self.pages += 1
        yield {"url": response.url, "status": response.status}
